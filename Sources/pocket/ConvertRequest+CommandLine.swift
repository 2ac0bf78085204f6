import Converter

// Scripts call `pocket convert` once per value, so a process's start is the whole cost of a
// conversion. ArgumentParser rebuilds its model of the commands by reflection in every process,
// and each type it reflects on makes the Swift runtime scan every protocol conformance of the
// binary and its libraries: 24 million instructions, half of a conversion. The common command
// lines are read here instead, and only those ArgumentParser reads the same way; everything else
// (help, --list, mistakes, other spellings of the options) still goes through ArgumentParser, so
// its messages and its help are unchanged.
extension ConvertRequest {
    /// A plain conversion, `pocket convert VALUE FROM TO [--plain] [--convention C] [--digits N]`
    /// in any order, with a negative value after "--" (`pocket convert -- -40 C F`); nil for any
    /// other command line and for a request `validate` refuses.
    ///
    /// `arguments` is the whole command line, the program's path first.
    init?(commandLine arguments: [String]) {
        guard arguments.count > 2, arguments[1] == "convert" else { return nil }
        var words: [String] = []
        var plain = false
        var convention: String?
        var digits: Int?
        var afterTerminator = false
        var tokens = arguments.dropFirst(2).makeIterator()
        while let token = tokens.next() {
            if afterTerminator {
                // Everything after "--" is a word; of words starting with "-", only numbers are
                // left to this reader.
                guard !token.hasPrefix("-") || Self.startsLikeANegativeNumber(token) else { return nil }
                words.append(token)
                continue
            }
            switch token {
            case "--":
                afterTerminator = true
                words.append(token)
            // ArgumentParser lets an option repeat (the last one wins); repeats are left to it.
            case "--plain" where !plain:
                plain = true
            case "--convention" where convention == nil:
                guard let value = tokens.next(), DataConvention(rawValue: value) != nil else { return nil }
                convention = value
            case "--digits" where digits == nil:
                guard let value = tokens.next(), let number = Self.smallNumber(value) else { return nil }
                digits = number
            default:
                // Any other option, a negative value before "--", help: ArgumentParser's.
                guard !token.hasPrefix("-"), token != "help" else { return nil }
                words.append(token)
            }
        }
        self.init(
            words: words, convention: convention ?? Self.defaultConvention, plain: plain,
            digits: digits ?? Self.defaultDigits)
        // ArgumentParser reports a refused request, in its own words.
        guard (try? validate()) != nil else { return nil }
    }

    /// "-4…", "-.5": the start of a negative number, not of an option such as "-h".
    private static func startsLikeANegativeNumber(_ token: String) -> Bool {
        let second = token.utf8.dropFirst().first
        return second == UInt8(ascii: ".") || (second.map { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ?? false)
    }

    /// 1 to 99 written plainly ("5", "12"); nil for anything ArgumentParser might read otherwise
    /// ("05", "+5", " 5").
    private static func smallNumber(_ text: String) -> Int? {
        let digits = Array(text.utf8)
        guard (1...2).contains(digits.count), digits[0] != UInt8(ascii: "0"),
              digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }
}
