/// Decodes the HTML character references the Scripture Citation Index keeps in its text
/// (`Benjam&iacute;n`, `Women&rsquo;s`, `D&amp;C`, `&#8212;`), for display as plain text.
///
/// One pass, left to right: `&amp;mdash;` becomes the literal text `&mdash;`, as a browser shows it.
/// A reference needs its closing `;`; anything that is not a known reference is kept as written.
public enum HTMLEntities {
    /// `text` with every named and numeric character reference replaced by its character.
    public static func decode(_ text: String) -> String {
        // The byte scan, not `contains("&")`: with Foundation imported that one bridges to NSString.
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let afterAmpersand = rest.index(after: ampersand)
            if let (replacement, end) = reference(in: rest[afterAmpersand...]) {
                result += replacement
                rest = rest[end...]
            } else {
                result += "&"
                rest = rest[afterAmpersand...]
            }
        }
        result += rest
        return result
    }

    /// Decodes an optional string; nil stays nil.
    public static func decode(_ text: String?) -> String? {
        text.map { decode($0) }
    }
}

// MARK: - Private

private extension HTMLEntities {
    /// The longest name in the table is 8 characters; numeric references need at most 10 digits.
    static let maximumReferenceLength = 12

    /// Parses the reference after an `&`: its text and the index just past its `;`.
    static func reference(in text: Substring) -> (String, Substring.Index)? {
        guard let semicolon = text.prefix(maximumReferenceLength + 1).firstIndex(of: ";") else { return nil }
        let body = text[..<semicolon]
        let end = text.index(after: semicolon)
        if body.first == "#" {
            return numeric(body.dropFirst()).map { ($0, end) }
        }
        guard !body.isEmpty, let character = named[String(body)] else { return nil }
        return (character, end)
    }

    /// `#NNN;` (decimal) or `#xHH;` (hex). Code points 128–159 are read as Windows-1252, as
    /// browsers do, since old pages wrote `&#146;` for a right quote.
    static func numeric(_ digits: Substring) -> String? {
        let value: UInt32?
        if digits.first == "x" || digits.first == "X" {
            let hex = digits.dropFirst()
            value = hex.isEmpty || hex.count > 8 ? nil : UInt32(hex, radix: 16)
        } else {
            value = digits.isEmpty || digits.count > 10 ? nil : UInt32(digits, radix: 10)
        }
        guard let value else { return nil }
        if let mapped = windows1252[value] { return String(mapped) }
        guard value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
        return String(Character(scalar))
    }

    static let windows1252: [UInt32: Character] = [
        0x80: "€", 0x82: "‚", 0x83: "ƒ", 0x84: "„", 0x85: "…", 0x86: "†", 0x87: "‡", 0x88: "ˆ",
        0x89: "‰", 0x8A: "Š", 0x8B: "‹", 0x8C: "Œ", 0x8E: "Ž", 0x91: "‘", 0x92: "’", 0x93: "“",
        0x94: "”", 0x95: "•", 0x96: "–", 0x97: "—", 0x98: "˜", 0x99: "™", 0x9A: "š", 0x9B: "›",
        0x9C: "œ", 0x9E: "ž", 0x9F: "Ÿ",
    ]

    /// The HTML 4 entity set (markup, Latin-1, typography, Greek letters, arrows and symbols)
    /// plus `apos`. The data uses `amp`, `mdash`, `rsquo`, `ldquo`, `rdquo` and accented
    /// letters such as `iacute`, `eacute`, `aacute`, `oacute` and `ntilde`.
    static let named: [String: String] = {
        var table: [String: String] = [
            "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'",
            // Typography
            "nbsp": "\u{00A0}", "ensp": "\u{2002}", "emsp": "\u{2003}", "thinsp": "\u{2009}",
            "zwnj": "\u{200C}", "zwj": "\u{200D}", "lrm": "\u{200E}", "rlm": "\u{200F}",
            "ndash": "–", "mdash": "—", "lsquo": "‘", "rsquo": "’", "sbquo": "‚",
            "ldquo": "“", "rdquo": "”", "bdquo": "„", "dagger": "†", "Dagger": "‡",
            "bull": "•", "hellip": "…", "permil": "‰", "prime": "′", "Prime": "″",
            "lsaquo": "‹", "rsaquo": "›", "oline": "‾", "frasl": "⁄", "euro": "€",
            "trade": "™", "circ": "ˆ", "tilde": "˜", "OElig": "Œ", "oelig": "œ",
            "Scaron": "Š", "scaron": "š", "Yuml": "Ÿ", "fnof": "ƒ",
            // Arrows and symbols
            "larr": "←", "uarr": "↑", "rarr": "→", "darr": "↓", "harr": "↔",
            "lArr": "⇐", "uArr": "⇑", "rArr": "⇒", "dArr": "⇓", "hArr": "⇔",
            "minus": "−", "lowast": "∗", "radic": "√", "infin": "∞", "asymp": "≈",
            "ne": "≠", "equiv": "≡", "le": "≤", "ge": "≥", "loz": "◊",
            "spades": "♠", "clubs": "♣", "hearts": "♥", "diams": "♦",
        ]
        // ISO 8859-1, U+00A1 to U+00FF, in order.
        let latin1 = [
            "iexcl", "cent", "pound", "curren", "yen", "brvbar", "sect", "uml", "copy", "ordf",
            "laquo", "not", "shy", "reg", "macr", "deg", "plusmn", "sup2", "sup3", "acute",
            "micro", "para", "middot", "cedil", "sup1", "ordm", "raquo", "frac14", "frac12", "frac34",
            "iquest", "Agrave", "Aacute", "Acirc", "Atilde", "Auml", "Aring", "AElig", "Ccedil", "Egrave",
            "Eacute", "Ecirc", "Euml", "Igrave", "Iacute", "Icirc", "Iuml", "ETH", "Ntilde", "Ograve",
            "Oacute", "Ocirc", "Otilde", "Ouml", "times", "Oslash", "Ugrave", "Uacute", "Ucirc", "Uuml",
            "Yacute", "THORN", "szlig", "agrave", "aacute", "acirc", "atilde", "auml", "aring", "aelig",
            "ccedil", "egrave", "eacute", "ecirc", "euml", "igrave", "iacute", "icirc", "iuml", "eth",
            "ntilde", "ograve", "oacute", "ocirc", "otilde", "ouml", "divide", "oslash", "ugrave", "uacute",
            "ucirc", "uuml", "yacute", "thorn", "yuml",
        ]
        for (offset, name) in latin1.enumerated() {
            if let scalar = Unicode.Scalar(0xA1 + offset) { table[name] = String(Character(scalar)) }
        }
        // Greek letters, U+0391 to U+03A9 and U+03B1 to U+03C9 (U+03A2 is unassigned).
        let greek = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta", "Eta", "Theta", "Iota", "Kappa",
                     "Lambda", "Mu", "Nu", "Xi", "Omicron", "Pi", "Rho", "", "Sigma", "Tau", "Upsilon",
                     "Phi", "Chi", "Psi", "Omega"]
        for (offset, name) in greek.enumerated() where !name.isEmpty {
            if let capital = Unicode.Scalar(0x391 + offset) { table[name] = String(Character(capital)) }
            if let small = Unicode.Scalar(0x3B1 + offset) { table[name.prefix(1).lowercased() + name.dropFirst()] = String(Character(small)) }
        }
        table["sigmaf"] = "ς"
        return table
    }()
}
