/// Text from outside made safe to print on a terminal: control characters (escape sequences
/// among them) are shown as `\u{…}` instead of being obeyed.
public enum TerminalText {
    /// `text` with every control character but tab and newline replaced by its escaped form, for
    /// output of several lines.
    public static func safeLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { safe(String($0)) }.joined(separator: "\n")
    }

    /// `text` with every control character but tab replaced by its escaped form.
    public static func safe(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control, scalar != "\t" {
                result += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
