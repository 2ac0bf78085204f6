import Foundation
import Remote
import Testing

@Suite("Stored JSON")
struct CodableTests {
    private func roundTrip<Value: Codable & Equatable>(_ value: Value) throws -> Value {
        let data = try JSONEncoder().encode(value)
        return try JSONDecoder().decode(Value.self, from: data)
    }

    private func json<Value: Encodable>(_ value: Value) throws -> [String: Any] {
        let data = try JSONEncoder().encode(value)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func aBusyTelevisionSurvivesARoundTrip() throws {
        var tv = onTV()
        try tv.setVolume(17)
        try tv.editFavourite(at: 2, label: "hbo", channel: 33)
        try tv.tuneFavourite(at: 2)
        try tv.pressDigit(8)
        #expect(try roundTrip(tv) == tv)
        #expect(try roundTrip(Television()) == Television())
    }

    @Test(arguments: DVRState.allCases)
    func aDVRInEveryStateSurvivesARoundTrip(_ state: DVRState) throws {
        var device = dvr(in: .recording)
        device.advance(by: 12.5)
        device.press(.stop)
        device.press(.play)
        device.advance(by: 3.25)
        device.force(state.button)
        #expect(device.state == state)
        #expect(try roundTrip(device) == device)
    }

    @Test func anOffDVRSurvivesARoundTrip() throws {
        #expect(try roundTrip(DVR()) == DVR())
    }

    @Test func theJSONIsPlainEnoughToReadInSQLite() throws {
        let tv = try json(onTV())
        #expect(tv["channel"] as? Int == 1)
        #expect(tv["volume"] as? Int == 50)
        #expect(tv["isOn"] as? Bool == true)
        let favourites = try #require(tv["favourites"] as? [[String: Any]])
        #expect(favourites.first?["label"] as? String == "ABC")
        #expect(favourites.first?["channel"] as? Int == 7)
        let device = try json(dvr(in: .fastForwarding))
        #expect(device["state"] as? String == "fastForwarding")
        #expect(device["position"] as? Double == 0)
    }

    /// Persisted names: changing one would orphan stored rows, so they are pinned here.
    @Test func rawValuesArePinned() {
        #expect(DVRState.allCases.map(\.rawValue) == ["stopped", "playing", "paused", "fastForwarding", "fastRewinding", "recording"])
        #expect(DVRButton.allCases.map(\.rawValue) == ["stop", "play", "pause", "fastForward", "fastRewind", "record"])
    }

    static let corruptTelevisions = [
        #"{"isOn":true,"volume":101,"channel":1,"favourites":\#(defaultFavourites)}"#,
        #"{"isOn":true,"volume":-1,"channel":1,"favourites":\#(defaultFavourites)}"#,
        #"{"isOn":true,"volume":50,"channel":0,"favourites":\#(defaultFavourites)}"#,
        #"{"isOn":true,"volume":50,"channel":100,"favourites":\#(defaultFavourites)}"#,
        #"{"isOn":true,"volume":50,"channel":1,"pendingDigit":10,"favourites":\#(defaultFavourites)}"#,
        #"{"isOn":false,"volume":50,"channel":1,"pendingDigit":3,"favourites":\#(defaultFavourites)}"#,
        #"{"isOn":true,"volume":50,"channel":1,"favourites":[{"label":"ABC","channel":7}]}"#,
        #"{"isOn":true,"volume":50,"channel":1,"favourites":[{"label":"ABCDE","channel":7},{"label":"CBS","channel":2},{"label":"FOX","channel":11},{"label":"NBC","channel":4}]}"#,
        #"{"isOn":true,"volume":50,"channel":1,"favourites":[{"label":"ABC","channel":0},{"label":"CBS","channel":2},{"label":"FOX","channel":11},{"label":"NBC","channel":4}]}"#,
    ]

    static let defaultFavourites = #"[{"label":"ABC","channel":7},{"label":"CBS","channel":2},{"label":"FOX","channel":11},{"label":"NBC","channel":4}]"#

    @Test func theHandWrittenBaselineDecodes() throws {
        let good = #"{"isOn":true,"volume":50,"channel":1,"pendingDigit":3,"favourites":\#(Self.defaultFavourites)}"#
        let tv = try JSONDecoder().decode(Television.self, from: Data(good.utf8))
        #expect(tv.pendingDigit == 3)
        #expect(tv.display == "3-")
    }

    @Test(arguments: corruptTelevisions)
    func corruptTelevisionsAreRejected(_ text: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Television.self, from: Data(text.utf8)) }
    }

    static let corruptDVRs = [
        #"{"isOn":false,"state":"playing","position":0,"recordingLength":0}"#,
        #"{"isOn":true,"state":"rewinding","position":0,"recordingLength":0}"#,
        #"{"isOn":true,"state":"playing","position":-1,"recordingLength":0}"#,
        #"{"isOn":true,"state":"playing","position":0,"recordingLength":-5}"#,
        #"{"isOn":true,"state":"playing","position":0}"#,
    ]

    @Test(arguments: corruptDVRs)
    func corruptDVRsAreRejected(_ text: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(DVR.self, from: Data(text.utf8)) }
    }

    @Test func lowercaseStoredLabelsAreNormalisedOnTheWayIn() throws {
        let text = #"{"label":" cnn ","channel":8}"#
        let favourite = try JSONDecoder().decode(Favourite.self, from: Data(text.utf8))
        #expect(favourite.label == "CNN")
    }
}
