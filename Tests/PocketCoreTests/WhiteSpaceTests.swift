import Foundation
import PocketCore
import Testing

@Suite("White space")
struct WhiteSpaceTests {
    @Test(arguments: [
        ("  Title  ", "Title"),
        ("\t\nTitle\r\n", "Title"),
        ("\u{00A0}Benjamín\u{3000}", "Benjamín"),
        ("\u{200B}zero width\u{200B}", "zero width"),
        ("inner  spaces\tstay", "inner  spaces\tstay"),
        ("   ", ""),
        ("", ""),
        ("\u{2028}x\u{2029}\u{0085}", "x"),
    ])
    func trims(_ input: String, _ expected: String) {
        #expect(WhiteSpace.trimmed(input) == expected)
    }

    /// The trim removes exactly what Foundation's `whitespacesAndNewlines` would, which it replaces.
    @Test func trimsWhatFoundationTrims() {
        let edges = (0...0x3000).compactMap(Unicode.Scalar.init).map(String.init)
        for edge in edges {
            let text = edge + "a" + edge
            #expect(WhiteSpace.trimmed(text) == text.trimmingCharacters(in: .whitespacesAndNewlines), "U+\(String(edge.unicodeScalars.first?.value ?? 0, radix: 16))")
        }
    }
}
