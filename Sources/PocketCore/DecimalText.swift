/// Numbers from outside (form fields, query items, feeds, GPX) read as decimals only.
///
/// `Double("0x35")` is 53 and `Double("nan")` is NaN: Swift's parser takes hexadecimal floats,
/// infinities and NaN, which no person or feed means by a coordinate.
public enum DecimalText {
    /// `text` as a number if it is an optionally signed decimal (`-3.05`, `53`, `.5`), with an
    /// optional decimal exponent (`1e-05`, as JSON numbers may be written), else nil.
    public static func number(_ text: some StringProtocol) -> Double? {
        let text = String(text)
        let parts = text.split(separator: "e", maxSplits: 1, omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "E", maxSplits: 1, omittingEmptySubsequences: false) }
        guard (1...2).contains(parts.count), isDecimal(parts[0], allowPoint: true) else { return nil }
        if parts.count == 2, !isDecimal(parts[1], allowPoint: false) { return nil }
        return Double(text)
    }

    private static func isDecimal(_ text: Substring, allowPoint: Bool) -> Bool {
        var digits = 0, points = 0
        for (offset, character) in text.enumerated() {
            switch character {
            case "0"..."9": digits += 1
            case "." where allowPoint: points += 1
            case "+" where offset == 0, "-" where offset == 0: continue
            default: return false
            }
        }
        return digits > 0 && points <= 1
    }
}
