import Foundation

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
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let exact = caseSensitiveSymbols[trimmed] { return [exact] }
        return aliasIndex[normalizedAlias(trimmed)] ?? []
    }

    private static let caseSensitiveSymbols: [String: UnitID] = ["b": "bit", "B": "byte", "NM": "nautical-mile"]

    /// The spelling-insensitive key a text is looked up by.
    static func normalizedAlias(_ text: String) -> String {
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

    /// Normalized alias → units, in catalog order (so mass "oz" precedes fluid "oz").
    static let aliasIndex: [String: [UnitID]] = {
        var index: [String: [UnitID]] = [:]
        for definition in allDefinitions {
            let spellings = [definition.id.rawValue, definition.name, definition.plural, definition.symbol]
                + definition.aliases
            for spelling in spellings {
                let key = normalizedAlias(spelling)
                // American spellings of the same names.
                let variants = [key, key.replacingOccurrences(of: "metre", with: "meter")
                    .replacingOccurrences(of: "litre", with: "liter")]
                for variant in variants where !variant.isEmpty && !(index[variant] ?? []).contains(definition.id) {
                    index[variant, default: []].append(definition.id)
                }
            }
        }
        return index
    }()

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
