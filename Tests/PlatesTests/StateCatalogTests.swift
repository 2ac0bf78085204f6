import Foundation
import Testing
@testable import Plates

@Suite("State catalog")
struct StateCatalogTests {
    @Test func bundledCatalogHasFiftyStatesWithCodesFromTheirPlates() throws {
        let catalog = try StateCatalog.bundled()
        #expect(catalog.count == 50)
        #expect(Set(catalog.states.map(\.code)).count == 50)
        #expect(catalog.state(code: "al")?.name == "Alabama")
        #expect(catalog.state(code: "MS")?.name == "Mississippi")
        #expect(catalog.state(code: "DC") == nil)
        #expect(catalog.states.first?.name == "Alabama")
        #expect(catalog.states.last?.name == "Wyoming")
    }

    @Test func sectionsAreTheLettersThatHaveStatesInOrder() throws {
        let sections = try StateCatalog.bundled().sections
        #expect(sections.map(\.letter) == ["A", "C", "D", "F", "G", "H", "I", "K", "L", "M", "N", "O", "P", "R", "S", "T", "U", "V", "W"])
        #expect(sections.first?.states.map(\.name) == ["Alabama", "Alaska", "Arizona", "Arkansas"])
        #expect(sections.first { $0.letter == "N" }?.states.count == 8)
        #expect(sections.flatMap(\.states).count == 50)
        for section in sections {
            #expect(section.states.map(\.name) == section.states.map(\.name).sorted())
        }
    }

    @Test func tileGridPlacesEveryStateOnItsOwnSquare() throws {
        let catalog = try StateCatalog.bundled()
        #expect(Set(catalog.states.map(\.tile)).count == 50)
        #expect(catalog.gridSize.rows == 8 && catalog.gridSize.columns == 11)
        #expect(catalog.state(code: "WA")?.tile == .init(row: 2, column: 0))
        #expect(catalog.state(code: "FL")?.tile == .init(row: 7, column: 8))
    }

    @Test func malformedCatalogsAreRefused() {
        #expect(throws: PlatesError.self) { try StateCatalog(json: Data("{}".utf8)) }
        #expect(throws: PlatesError.self) {
            try StateCatalog(json: Data(#"[{"name":"Nowhere","nickname":"x","plateImageURL":"http://h/zz01.jpg"}]"#.utf8))
        }
        #expect(throws: PlatesError.self) {
            try StateCatalog(json: Data(#"[{"name":"Alabama","nickname":"x","plateImageURL":"ftp://h/al01.jpg"}]"#.utf8))
        }
        let twice = #"[{"name":"Alabama","nickname":"x","plateImageURL":"http://h/al01.jpg"},{"name":"Alabama","nickname":"y","plateImageURL":"http://h/al02.jpg"}]"#
        #expect(throws: PlatesError.self) { try StateCatalog(json: Data(twice.utf8)) }
    }
}
