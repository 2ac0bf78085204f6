import Foundation
import GRDB
import PocketCore

// The sci-core tables declare loose types ("ID int", "Page int", everything nullable) and the real
// files hold whatever their build scripts wrote. GRDB's typed subscripts stop the process on a value
// they cannot convert, so every value read from a downloaded database goes through these instead.

extension Row {
    /// The column as an integer: integers, whole reals and numeric text are accepted; anything else is nil.
    func integer(_ column: String) -> Int? {
        let value: DatabaseValue = self[column]
        return value.lenientInteger
    }

    /// The column as raw text (numbers are written out); nil for NULL.
    func text(_ column: String) -> String? {
        let value: DatabaseValue = self[column]
        switch value.storage {
        case .string(let text): return text
        case .int64(let number): return String(number)
        case .double(let number): return String(number)
        case .blob(let data): return String(data: data, encoding: .utf8)
        case .null: return nil
        }
    }

    /// The column as text for display: entities decoded, whitespace trimmed, "" for NULL.
    func display(_ column: String) -> String {
        text(column).map(DisplayText.clean) ?? ""
    }

    /// Like `display`, but nil when the value is NULL or blank.
    func optionalDisplay(_ column: String) -> String? {
        let value = display(column)
        return value.isEmpty ? nil : value
    }

    /// "GivenNames LastNames" from two columns, entities decoded and spaces tidied.
    func personName(given: String, last: String) -> String {
        [display(given), display(last)].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The column as a web address, when it holds one.
    func webURL(_ column: String) -> URL? {
        guard let text = optionalDisplay(column), let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host != nil else { return nil }
        return url
    }
}

extension DatabaseValue {
    /// The value as an integer: integers, whole reals and numeric text are accepted; anything else is nil.
    var lenientInteger: Int? {
        switch storage {
        case .int64(let number): return Int(exactly: number)
        case .double(let number): return number.isFinite ? Int(exactly: number.rounded(.towardZero)) : nil
        case .string(let text): return Int(WhiteSpace.trimmed(text))
        case .blob, .null: return nil
        }
    }
}
