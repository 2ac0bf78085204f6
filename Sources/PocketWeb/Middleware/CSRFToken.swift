/// Random, URL-safe tokens and their constant-time comparison.
enum CSRFToken {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    static let length = 43

    /// 43 characters from a 64-letter alphabet: 258 bits from the system's secure generator.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<length).map { _ in alphabet[Int(generator.next(upperBound: UInt8(alphabet.count)))] }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func isWellFormed(_ token: String) -> Bool {
        token.utf8.count == length && token.utf8.allSatisfy { alphabet.contains($0) }
    }

    /// Compares without an early exit, so timing says nothing about how much matched.
    static func matches(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count, !x.isEmpty else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
