import Foundation
import PocketCore

// Finding units by what people type: ids, names, plurals, symbols and common abbreviations,
// case-insensitively, ignoring spaces, hyphens, dots, "°" and a "deg"/"degree(s)" prefix
// ("°C", "degC", "degrees Celsius" all mean Celsius; "m2", "m^2", "m²", "sq m" all mean m²).
//
// Ambiguities, decided once:
// - "m" is the metre (never minute or mile); "min" is the minute, "mi" the mile, "ms" the millisecond.
// - Case matters only for "b" (bit) vs "B" (byte) and "NM" (nautical mile; lower-case "nm" would be
//   a nanometre, which Pocket lacks, so it is unknown rather than silently a nautical mile).
// - "KB", "kB", "MB", … are data units whose size follows the chosen `DataConvention`;
//   "KiB", "kibibyte", … are always powers of 1024.
// - "oz"/"ounce(s)" is the mass ounce unless the other unit is a volume (`lookupPair`);
//   "gallon", "pint", "quart", "cup" are US customary; "imperial gallon"/"uk gal" is imperial.
// - "ton" is unknown (short, long or metric?); "tonne"/"t"/"metric ton" is 1000 kg.
extension UnitCatalog {
    /// The unit a name, symbol or id refers to; throws `unknownUnit` with suggestions if none.
    public static func lookup(_ text: String) throws(ConverterError) -> UnitID {
        guard let first = candidates(for: text).first else {
            throw .unknownUnit(text, suggestions: suggestions(for: text))
        }
        return first
    }

    /// Looks up both units of a conversion, letting each settle the other's ambiguity
    /// ("8 oz mL" means fluid ounces); throws if either is unknown or their categories differ.
    public static func lookupPair(from: String, to: String) throws(ConverterError) -> UnitPair {
        let sources = candidates(for: from)
        guard let firstSource = sources.first else {
            throw .unknownUnit(from, suggestions: suggestions(for: from))
        }
        let targets = candidates(for: to)
        guard let firstTarget = targets.first else {
            throw .unknownUnit(to, suggestions: suggestions(for: to))
        }
        for source in sources {
            for target in targets where category(of: source) == category(of: target) {
                return UnitPair(from: source, to: target)
            }
        }
        throw .incompatibleUnits(
            from: category(of: firstSource) ?? .data, to: category(of: firstTarget) ?? .data)
    }

    /// The category of a unit id, or nil if there is no such unit.
    public static func category(of id: UnitID) -> UnitCategory? {
        definition(for: id, convention: .standard)?.category
    }

    /// All units a text may mean, most likely first.
    static func candidates(for text: String) -> [UnitID] {
        // The same characters as Foundation's `whitespacesAndNewlines`, without building that
        // CharacterSet, which cost more than the rest of a lookup.
        let trimmed = WhiteSpace.trimmed(text)
        if let exact = caseSensitiveSymbols[trimmed] { return [exact] }
        return aliasIndex[normalizedAlias(trimmed)] ?? []
    }

    private static let caseSensitiveSymbols: [String: UnitID] = ["b": "bit", "B": "byte", "NM": "nautical-mile"]

    /// The spelling-insensitive key a text is looked up by.
    static func normalizedAlias(_ text: String) -> String {
        asciiNormalizedAlias(text) ?? unicodeNormalizedAlias(text)
    }

    /// `normalizedAlias` of text made of ASCII, "²", "³" and "°" only, or nil for any other
    /// character. Every catalog spelling is such text, and so is nearly everything typed.
    ///
    /// Building the alias index normalizes every spelling of every unit; through Foundation's
    /// `replacingOccurrences` (an `NSString` bridge on Linux) that took 29 million instructions,
    /// most of a `pocket convert` run. Byte by byte it is about a thousand per spelling. The result is
    /// the same as `unicodeNormalizedAlias`'s: lower-case ASCII letters, "²" and "³" as digits,
    /// neither `Character.isWhitespace` (in ASCII: tab to carriage return, and space) nor "-_^°.".
    private static func asciiNormalizedAlias(_ text: String) -> String? {
        var key: [UInt8] = []
        key.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "A"..."Z": key.append(UInt8(scalar.value) - UInt8(ascii: "A") + UInt8(ascii: "a"))
            case "²": key.append(UInt8(ascii: "2"))
            case "³": key.append(UInt8(ascii: "3"))
            case "\t", "\n", "\u{0B}", "\u{0C}", "\r", " ", "-", "_", "^", "°", ".": continue
            default:
                guard scalar.isASCII else { return nil }
                key.append(UInt8(scalar.value))
            }
        }
        for prefix in degreePrefixes where key.count > prefix.count && key.starts(with: prefix) {
            key.removeFirst(prefix.count)
            break
        }
        return String(decoding: key, as: UTF8.self)
    }

    /// `normalizedAlias` of any text: Unicode lower case (the Kelvin sign, U+212A, becomes "k"), and any
    /// white space (no-break spaces too) dropped. Only text `asciiNormalizedAlias` declines comes here.
    private static func unicodeNormalizedAlias(_ text: String) -> String {
        var key = text.lowercased()
            .replacingOccurrences(of: "²", with: "2")
            .replacingOccurrences(of: "³", with: "3")
        key.removeAll { $0.isWhitespace || "-_^°.".contains($0) }
        for prefix in ["degrees", "degree", "deg"] where key.hasPrefix(prefix) && key.count > prefix.count {
            key.removeFirst(prefix.count)
            break
        }
        return key
    }

    /// "degC", "degree Celsius" and "degrees Celsius" all mean "°C"; the longest prefix goes first.
    private static let degreePrefixes: [[UInt8]] = ["degrees", "degree", "deg"].map { Array($0.utf8) }

    /// Normalized alias → units, in catalog order (so mass "oz" precedes fluid "oz").
    ///
    /// Built on first use, which every `pocket convert` run is: it must stay cheap (see
    /// `asciiNormalizedAlias`).
    static let aliasIndex: [String: [UnitID]] = {
        let definitions = allDefinitions
        var index: [String: [UnitID]] = [:]
        index.reserveCapacity(definitions.count * 8)
        for definition in definitions {
            func add(_ key: String) {
                guard !key.isEmpty, !(index[key] ?? []).contains(definition.id) else { return }
                index[key, default: []].append(definition.id)
            }
            let spellings = [definition.id.rawValue, definition.name, definition.plural, definition.symbol]
                + definition.aliases
            for spelling in spellings {
                let key = normalizedAlias(spelling)
                add(key)
                // American spellings of the same names.
                if let american = americanSpelling(key) { add(american) }
            }
        }
        return index
    }()

    /// A key with "metre" written "meter" and "litre" "liter" ("kilometre" → "kilometer"), or
    /// nil if it has neither.
    ///
    /// Keys of catalog spellings are ASCII, where swapping the last two letters of each "metre"
    /// and "litre" in place is what Foundation's `replacingOccurrences` did, without its cost.
    private static func americanSpelling(_ key: String) -> String? {
        var bytes = Array(key.utf8)
        var changed = false
        var start = 0
        while start + 5 <= bytes.count {
            if bytes[start + 2] == UInt8(ascii: "t"), bytes[start + 3] == UInt8(ascii: "r"),
               bytes[start + 4] == UInt8(ascii: "e"),
               (bytes[start] == UInt8(ascii: "m") && bytes[start + 1] == UInt8(ascii: "e"))
                   || (bytes[start] == UInt8(ascii: "l") && bytes[start + 1] == UInt8(ascii: "i")) {
                bytes.swapAt(start + 3, start + 4)
                changed = true
                start += 5
            } else {
                start += 1
            }
        }
        return changed ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// Symbols of units spelled close to `text` (within one or two edits, or starting with it),
    /// prefix matches first; a few common units if nothing is close.
    static func suggestions(for text: String) -> [String] {
        let key = normalizedAlias(text)
        let allowedDistance = key.count <= 3 ? 1 : 2
        // Rank: 0 for an exact spelling, 1 for "starts with what was typed", else 1 + edit distance.
        var best: [UnitID: Int] = [:]
        if !key.isEmpty {
            for (alias, ids) in aliasIndex where alias.count >= 2 {
                let rank = alias == key ? 0
                    : key.count >= 2 && alias.hasPrefix(key) ? 1
                    : 1 + editDistance(key, alias, limit: allowedDistance)
                guard rank <= allowedDistance + 1 else { continue }
                for id in ids where rank < best[id] ?? Int.max {
                    best[id] = rank
                }
            }
        }
        // A unit spelled exactly so (an unknown id that is a known name) is the answer itself.
        if best.values.contains(0) { best = best.filter { $0.value == 0 } }
        let close = best.sorted { ($0.value, catalogPosition[$0.key] ?? 0) < ($1.value, catalogPosition[$1.key] ?? 0) }
            .prefix(4)
            .compactMap { info(for: $0.key)?.symbol }
        return close.isEmpty ? fallbackSuggestions : close
    }

    /// Each id's first position in catalog order, so equally close suggestions list as pickers do.
    private static let catalogPosition: [UnitID: Int] = {
        var positions: [UnitID: Int] = [:]
        for (position, definition) in allDefinitions.enumerated() where positions[definition.id] == nil {
            positions[definition.id] = position
        }
        return positions
    }()

    private static let fallbackSuggestions = ["m", "km", "mi", "kg", "lb", "L", "gal", "°C", "°F", "KB", "MB"]

    /// Levenshtein distance, giving up (returning `limit + 1`) once it must exceed `limit`.
    private static func editDistance(_ first: String, _ second: String, limit: Int) -> Int {
        let a = Array(first)
        let b = Array(second)
        guard abs(a.count - b.count) <= limit else { return limit + 1 }
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            if current.min() ?? 0 > limit { return limit + 1 }
            previous = current
        }
        return previous[b.count]
    }
}
