import Foundation
import PocketCore
import Testing
@testable import Murals

@Suite("Demo murals service")
struct DemoMuralServiceTests {
    @Test func feedIsTheWireFormatWithVariety() throws {
        let data = DemoMuralService.feed()
        // Every scalar is a string, and missing artists/infos are explicit nulls.
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let records = try #require(object["newbrighton_murals"] as? [[String: Any]])
        #expect(records.count == 24)
        for record in records {
            for key in ["id", "title", "thumbnail", "lat", "lon", "enabled", "lastModified"] {
                #expect(record[key] is String, "\(key)")
            }
            #expect(record.keys.contains("artist") && record.keys.contains("info"))
        }
        let result = try MuralFeed.decode(data)
        #expect(result.skipped.isEmpty)
        #expect(result.murals.map(\.id) == Array(1...24))
        #expect(result.murals.contains { $0.artist == nil })
        #expect(result.murals.contains { $0.info == nil })
        #expect(result.murals.contains { $0.images.count > 1 })
        #expect(Set(result.murals.map(\.title)).count == 24)
        #expect(result.murals.allSatisfy { $0.info == nil || $0.info?.hasPrefix("Demo data") == true })
        // All around the walk in New Brighton.
        #expect(result.murals.allSatisfy { $0.coordinate.distance(to: NewBrighton.centre) < 700 })
        #expect(result.murals.allSatisfy { $0.lastModified.hasPrefix("2022-") && $0.lastModified.count == 19 })
    }

    @Test func sameSeedSameDataAndSinceFilters() throws {
        #expect(DemoMuralService.feed(seed: 7) == DemoMuralService.feed(seed: 7))
        #expect(DemoMuralService.feed(seed: 7) != DemoMuralService.feed(seed: 8))
        let all = try MuralFeed.decode(DemoMuralService.feed(count: 60)).murals
        let recent = try MuralFeed.decode(DemoMuralService.feed(count: 60, since: "2022-10-15")).murals
        #expect(recent.map(\.id) == all.filter { $0.lastModified >= "2022-10-15" }.map(\.id))
        #expect(!recent.isEmpty && recent.count < all.count)
        #expect(try MuralFeed.decode(DemoMuralService.feed(count: 60, since: "2030-01-01")).murals.isEmpty)
    }

    @Test func thumbnailsUseTheGivenBaseAndEveryPictureExists() throws {
        let base = try #require(URL(string: "http://127.0.0.1:8080/murals/demo/images/"))
        let murals = try MuralFeed.decode(DemoMuralService.feed(count: 12, imageBase: base)).murals
        for mural in murals {
            #expect(mural.thumbnail?.absoluteString == "http://127.0.0.1:8080/murals/demo/images/demo-\(mural.id)-1.svg")
            for image in mural.images {
                let svg = try #require(DemoMuralService.image(named: image.filename))
                let text = String(decoding: svg, as: UTF8.self)
                #expect(text.hasPrefix("<svg"))
                #expect(text.contains(">Demo<"))
            }
        }
    }

    @Test(arguments: ["", "IMG_1065X.JPG", "demo-0-1.svg", "demo-1-4.svg", "demo-01-1.svg", "demo-1-1.svg/../x", "../demo-1-1.svg", "demo--1-1.svg"])
    func unknownPicturesAreNil(name: String) {
        #expect(DemoMuralService.image(named: name) == nil)
    }

    @Test func tenThousandMuralsForBenchmarks() throws {
        let result = try MuralFeed.decode(DemoMuralService.feed(count: 10_000))
        #expect(result.murals.count == 10_000)
        #expect(result.skipped.isEmpty)
    }
}
