import Foundation
import PocketCore
import Testing
@testable import Murals

@Suite("Mural feed decoding")
struct MuralFeedTests {
    /// The one real record known (see SOURCES.md), inside the service's wrapper.
    static let realResponse = #"""
        {"newbrighton_murals":[{"id":"1",
        "title":"I See The Sea",
        "artist":"Ben Eine",
        "info":"Overlooking a secure car park Ben Eine's 'I See The Sea' is a bright neon yellow mural which is just pure fun.",
        "thumbnail":"https:\/\/cgi.csc.liv.ac.uk\/~phil\/Teaching\/COMP228\/nbm_thumbs\/IMG_1065X.JPG",
        "lat":"53.43881250167621",
        "lon":"-3.0416222190640183",
        "enabled":"1",
        "lastModified":"2022-11-21 12:02:37",
        "images":[{"id":"1","filename":"IMG_1065X.JPG"}]}]}
        """#

    @Test func decodesTheRealRecordExactly() throws {
        let result = try MuralFeed.decode(Data(Self.realResponse.utf8))
        #expect(result.skipped.isEmpty)
        let mural = try #require(result.murals.first)
        #expect(mural.id == 1)
        #expect(mural.title == "I See The Sea")
        #expect(mural.artist == "Ben Eine")
        #expect(mural.info?.hasPrefix("Overlooking a secure car park") == true)
        #expect(mural.thumbnail?.absoluteString == "https://cgi.csc.liv.ac.uk/~phil/Teaching/COMP228/nbm_thumbs/IMG_1065X.JPG")
        #expect(mural.coordinate == GeoCoordinate(latitude: 53.43881250167621, longitude: -3.0416222190640183))
        #expect(mural.isEnabled)
        #expect(mural.lastModified == "2022-11-21 12:02:37")
        #expect(mural.images == [MuralImage(id: "1", filename: "IMG_1065X.JPG")])
        #expect(mural.imageURLs(base: MuralsSynchronizer.defaultImageBase).map(\.absoluteString)
            == ["https://cgi.csc.liv.ac.uk/~phil/Teaching/COMP228/nbm_images/IMG_1065X.JPG"])
    }

    @Test func nullArtistAndInfoAndEmptyTextBecomeNil() throws {
        let json = #"{"newbrighton_murals":[{"id":"2","title":"The Mysterines","artist":null,"info":null,"lat":"53.44","lon":"-3.04","enabled":"1","lastModified":"2022-11-21 12:00:00","images":[]},"#
            + #"{"id":"3","title":"Otto","artist":"  ","info":"","lat":"53.44","lon":"-3.04","enabled":"1"}]}"#
        let murals = try MuralFeed.decode(Data(json.utf8)).murals
        #expect(murals.map(\.artist) == [nil, nil])
        #expect(murals.map(\.info) == [nil, nil])
        #expect(murals[1].lastModified == "")
        #expect(murals[1].images.isEmpty)
    }

    @Test(arguments: [
        (#"{"title":"No id","lat":"53.4","lon":"-3.0","enabled":"1"}"#, "it has no id"),
        (#"{"id":"x7","title":"Bad id","lat":"53.4","lon":"-3.0","enabled":"1"}"#, "its id “x7” is not a whole number"),
        (#"{"id":"1.5","title":"Bad id","lat":"53.4","lon":"-3.0","enabled":"1"}"#, "its id “1.5” is not a whole number"),
        (#"{"id":"4","lat":"53.4","lon":"-3.0","enabled":"1"}"#, "it has no title"),
        (#"{"id":"4","title":"No place","enabled":"1"}"#, "it has no coordinates"),
        (#"{"id":"4","title":"T","lat":"fifty-three","lon":"-3.0","enabled":"1"}"#, "its latitude “fifty-three” is not a number"),
        (#"{"id":"4","title":"T","lat":"53.4","lon":"","enabled":"1"}"#, "its longitude “” is not a number"),
        (#"{"id":"4","title":"T","lat":"153.4","lon":"-3.0","enabled":"1"}"#, "its coordinates 153.4, -3.0 are not on Earth"),
        (#"{"id":"4","title":"T","lat":"nan","lon":"-3.0","enabled":"1"}"#, "its latitude “nan” is not a number"),
        (#"{"id":"4","title":"T","lat":"0x35","lon":"-3.0","enabled":"1"}"#, "its latitude “0x35” is not a number"),
        (#""just a string""#, "it is not a JSON object"),
    ])
    func unusableRecordsAreSkippedWithAReason(record: String, reason: String) throws {
        let json = #"{"newbrighton_murals":["# + record + #",{"id":"9","title":"Fine","lat":"53.4","lon":"-3.0","enabled":"1"}]}"#
        let result = try MuralFeed.decode(Data(json.utf8))
        #expect(result.murals.map(\.id) == [9])
        #expect(result.skipped.count == 1)
        #expect(result.skipped.first?.index == 0)
        #expect(result.skipped.first?.reason == reason)
    }

    @Test func numbersInsteadOfStringsAreAccepted() throws {
        let json = #"{"newbrighton_murals":[{"id":7,"title":"Numbers","lat":53.4,"lon":-3.0,"enabled":1,"images":[{"id":1,"filename":"a.jpg"},{"id":2}]}]}"#
        let mural = try #require(try MuralFeed.decode(Data(json.utf8)).murals.first)
        #expect(mural.id == 7)
        #expect(mural.coordinate == GeoCoordinate(latitude: 53.4, longitude: -3.0))
        #expect(mural.isEnabled)
        #expect(mural.images == [MuralImage(id: "1", filename: "a.jpg")]) // the entry without a file is dropped
    }

    @Test(arguments: ["0", "", "yes", "2"])
    func onlyEnabledOneIsShown(value: String) throws {
        let json = #"{"newbrighton_murals":[{"id":"1","title":"T","lat":"53.4","lon":"-3.0","enabled":"\#(value)"}]}"#
        #expect(try MuralFeed.decode(Data(json.utf8)).murals.first?.isEnabled == false)
    }

    @Test func duplicateIDsKeepTheLaterCopyInTheFirstPosition() throws {
        let json = #"{"newbrighton_murals":[{"id":"5","title":"Old","lat":"53.4","lon":"-3.0","enabled":"1"},"#
            + #"{"id":"6","title":"Other","lat":"53.4","lon":"-3.0","enabled":"1"},"#
            + #"{"id":"5","title":"New","lat":"53.5","lon":"-3.1","enabled":"0"}]}"#
        let murals = try MuralFeed.decode(Data(json.utf8)).murals
        #expect(murals.map(\.id) == [5, 6])
        #expect(murals[0].title == "New")
        #expect(murals[0].isEnabled == false)
    }

    @Test(arguments: [
        ("<html><body>Service unavailable</body></html>", "not valid JSON"),
        ("", "not valid JSON"),
        (#"{"newbrighton_murals":[{"id":"1""#, "not valid JSON"),
        ("[]", "the top level is not an object"),
        (#"{"murals":[]}"#, "no “newbrighton_murals” list"),
        (#"{"newbrighton_murals":"none"}"#, "“newbrighton_murals” is not a list"),
    ])
    func badResponsesThrow(body: String, detail: String) {
        #expect(throws: MuralsError.malformedFeed(detail)) { try MuralFeed.decode(Data(body.utf8)) }
    }

    @Test func anEmptyOrNullListIsNoChange() throws {
        #expect(try MuralFeed.decode(Data(#"{"newbrighton_murals":[]}"#.utf8)) == MuralFeedResult(murals: [], skipped: []))
        #expect(try MuralFeed.decode(Data(#"{"newbrighton_murals":null}"#.utf8)).murals.isEmpty)
    }

    @Test func thumbnailsMustBeWebAddresses() throws {
        let json = #"{"newbrighton_murals":[{"id":"1","title":"T","lat":"53.4","lon":"-3.0","enabled":"1","thumbnail":"javascript:alert(1)"}]}"#
        #expect(try MuralFeed.decode(Data(json.utf8)).murals.first?.thumbnail == nil)
    }

    @Test func imageURLsEncodeTheFileNameAsOnePathComponent() throws {
        let mural = Mural(
            id: 1, title: "T", artist: nil, info: nil, thumbnail: nil,
            coordinate: NewBrighton.centre, isEnabled: true, lastModified: "",
            images: [.init(id: "1", filename: "IMG 1?.JPG"), .init(id: "2", filename: "../secret"), .init(id: "3", filename: ".."), .init(id: "4", filename: "a#b.png")]
        )
        let base = try #require(URL(string: "https://example.org/nbm_images"))
        #expect(mural.imageURLs(base: base).map(\.absoluteString) == [
            "https://example.org/nbm_images/IMG%201%3F.JPG",
            "https://example.org/nbm_images/..%2Fsecret",
            "https://example.org/nbm_images/a%23b.png",
        ])
    }
}
