import Foundation
import Testing
@testable import Conference

@Suite("Display text")
struct DisplayTextTests {
    @Test(arguments: [
        ("  Title  ", "Title"),
        ("\t\nTitle\r\n", "Title"),
        ("\u{00A0}Benjam&iacute;n\u{3000}", "Benjamín"),
        ("&nbsp;Decoded space is trimmed too&nbsp;", "Decoded space is trimmed too"),
        ("inner  spaces\tstay", "inner  spaces\tstay"),
        ("   ", ""),
        ("", ""),
        ("\u{2028}x\u{2029}\u{0085}", "x"),
    ])
    func cleans(_ input: String, _ expected: String) {
        #expect(DisplayText.clean(input) == expected)
    }
}

@Suite("Text folding")
struct TextFoldingTests {
    @Test(arguments: [
        ("Holland", "holland"),
        ("McConkie", "mcconkie"),
        ("Álvarez", "alvarez"),
        ("Giménez", "gimenez"),
        ("Ølberg", "ølberg"),
        ("", ""),
    ])
    func foldsCaseAndMarks(_ input: String, _ expected: String) {
        #expect(TextFolding.sortKey(input) == expected)
    }

    @Test(arguments: [("holland", "H"), ("alvarez", "A"), ("ølberg", "#"), ("1st", "#"), ("", "#")])
    func filesUnderALetterOrHash(_ key: String, _ letter: String) {
        #expect(TextFolding.indexLetter(key) == letter)
    }
}
