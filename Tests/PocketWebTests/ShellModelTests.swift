import Testing
@testable import PocketWeb

/// The shell's page models: the style guide and the frame every page shares.
@Suite("Shell models")
struct ShellModelTests {
    @Test func designModelSelectsOnePlanetAndChecksDefaults() {
        let model = Design.Model(query: "q", selectedID: "venus")
        #expect(model.selectedDetail?.title == "Venus")
        #expect(model.details.filter(\.selected).count == 1)
        #expect(model.letters.count == 26)
        #expect(model.wheelHours.filter(\.checked).map(\.label) == ["09"])
        #expect(model.segments.filter(\.checked).map(\.label) == ["Week"])
        #expect(Design.Model().selectedDetail == nil)
    }

    @Test func frameTitlesNameTheProduct() {
        #expect(PageFrame(title: "Pocket").documentTitle == "Pocket")
        #expect(PageFrame(title: "Design").documentTitle == "Design · Pocket")
    }
}
