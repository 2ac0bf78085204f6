@testable import Converter
import Foundation
import PocketCore
import Testing

/// The alias index and the key a typed unit is looked up by are built without Foundation's
/// string functions (which made `pocket convert` slow); these prove they are what the Foundation
/// version built, so every spelling still finds the same units.
@Suite struct UnitLookupTests {
    /// Every spelling of every unit (id, name, plural, symbol, aliases), as the catalog writes it.
    private static let catalogSpellings: [String] = UnitCatalog.allDefinitions.flatMap { definition in
        [definition.id.rawValue, definition.name, definition.plural, definition.symbol] + definition.aliases
    }

    @Test func theAliasIndexIsTheOneFoundationBuilt() {
        let reference = FoundationLookup.aliasIndex()
        #expect(UnitCatalog.aliasIndex.count == reference.count)
        for (key, ids) in reference {
            #expect(UnitCatalog.aliasIndex[key] == ids, "'\(key)'")
        }
        for key in UnitCatalog.aliasIndex.keys where reference[key] == nil {
            Issue.record("'\(key)' is not a key of the reference index")
        }
        // The index really holds the American spellings and the shared "oz".
        #expect(reference["kilometer"] == ["kilometre"])
        #expect(reference["milliliters"] == ["millilitre"])
        #expect(reference["oz"] == ["ounce", "us-fluid-ounce"])
    }

    @Test func everySpellingOfEveryUnitFindsTheSameUnits() throws {
        let reference = FoundationLookup.aliasIndex()
        #expect(Self.catalogSpellings.count > 300)
        for spelling in Self.catalogSpellings {
            let expected = FoundationLookup.candidates(for: spelling, in: reference)
            #expect(!expected.isEmpty, "'\(spelling)'")
            #expect(UnitCatalog.candidates(for: spelling) == expected, "'\(spelling)'")
            #expect(try UnitCatalog.lookup(spelling) == expected.first, "'\(spelling)'")
            // The same spelling typed loosely: upper case, padded, with the American spelling.
            let loose = " \(spelling.uppercased())\t"
            #expect(UnitCatalog.candidates(for: loose) == FoundationLookup.candidates(for: loose, in: reference), "'\(loose)'")
            let american = spelling.replacingOccurrences(of: "metre", with: "meter")
                .replacingOccurrences(of: "litre", with: "liter")
            #expect(UnitCatalog.candidates(for: american) == expected, "'\(american)'")
        }
    }

    @Test func catalogSpellingsNeedNoFoundation() {
        // Catalog spellings take the byte-wise path; a character beyond ASCII, "²", "³" and "°"
        // would silently send them through the slow one when the index is built.
        let allowed: Set<Unicode.Scalar> = ["²", "³", "°"]
        for spelling in Self.catalogSpellings {
            #expect(spelling.unicodeScalars.allSatisfy { $0.isASCII || allowed.contains($0) }, "'\(spelling)'")
        }
    }

    @Test(arguments: [
        "", " ", "deg", "degC", "DEGREES Fahrenheit", "degree", "degrees", "degreesC", "deg C", "°C", "° F",
        "m²", "M³", "m^2", "sq. ft.", "km/h", "KM/H", "fl. oz.", "lbf/in2", "\"", "'", "us_gallon", "a\r\nb",
        "x\u{0B}y\u{0C}z", "\u{1C}m\u{1F}", "\u{7F}", "K", "\u{212A}m", "sq\u{00A0}ft", "km\u{3000}", "ﬁ",
        "İ", "Straße", "e\u{301}", "°\u{301}C", "²\u{301}", "m\u{2028}", "metre", "METRE", "degmetre",
    ])
    func typedTextGivesTheKeyFoundationGave(_ text: String) {
        #expect(UnitCatalog.normalizedAlias(text) == FoundationLookup.normalizedAlias(text))
        let reference = FoundationLookup.aliasIndex()
        #expect(UnitCatalog.candidates(for: text) == FoundationLookup.candidates(for: text, in: reference))
    }

    @Test func everyAsciiCharacterGivesTheKeyFoundationGave() {
        for value in UInt8(0)...UInt8(127) {
            let character = String(UnicodeScalar(value))
            for text in [character, "a\(character)b", "\(character)deg", "deg\(character)c", "m\(character)2"] {
                #expect(UnitCatalog.normalizedAlias(text) == FoundationLookup.normalizedAlias(text), "U+\(value)")
            }
        }
    }

    @Test func randomTextGivesTheKeyFoundationGave() {
        // A fixed seed, so a failure repeats.
        var generator = SplitMix64(seed: 14)
        let pieces = ["a", "Z", "m", "k", "M", "²", "³", "°", " ", "-", "_", "^", ".", "/", "deg", "Degrees", "metre",
                      "\t", "\r\n", "\u{00A0}", "\u{212A}", "é", "e\u{301}", "0", "9", "\"", "'"]
        for _ in 0..<2000 {
            let length = Int.random(in: 0...8, using: &generator)
            let text = (0..<length).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            #expect(UnitCatalog.normalizedAlias(text) == FoundationLookup.normalizedAlias(text), "'\(text)'")
        }
    }
}

/// The lookup as it was written with Foundation before it had to be fast: the reference.
private enum FoundationLookup {
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

    static func aliasIndex() -> [String: [UnitID]] {
        var index: [String: [UnitID]] = [:]
        for definition in UnitCatalog.allDefinitions {
            let spellings = [definition.id.rawValue, definition.name, definition.plural, definition.symbol]
                + definition.aliases
            for spelling in spellings {
                let key = normalizedAlias(spelling)
                let variants = [key, key.replacingOccurrences(of: "metre", with: "meter")
                    .replacingOccurrences(of: "litre", with: "liter")]
                for variant in variants where !variant.isEmpty && !(index[variant] ?? []).contains(definition.id) {
                    index[variant, default: []].append(definition.id)
                }
            }
        }
        return index
    }

    static func candidates(for text: String, in index: [String: [UnitID]]) -> [UnitID] {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let caseSensitiveSymbols: [String: UnitID] = ["b": "bit", "B": "byte", "NM": "nautical-mile"]
        if let exact = caseSensitiveSymbols[trimmed] { return [exact] }
        return index[normalizedAlias(trimmed)] ?? []
    }
}
