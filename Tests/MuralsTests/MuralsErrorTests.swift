import Testing
@testable import Murals

@Suite struct MuralsErrorTests {
    @Test func missingResourceNamesTheFile() {
        #expect(MuralsError.missingResource("walk.gpx").description.contains("walk.gpx"))
    }
}
