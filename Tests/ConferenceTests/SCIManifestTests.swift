import Foundation
import Testing
@testable import Conference

@Suite("Manifest")
struct SCIManifestTests {
    static var valid: [String: Any] { [
        "version": "22", "download-name": "sci-core.22.zip", "download-size": "12306144",
        "download-md5": "98a5fb6b992609736d4a8590cbd448e3", "content-name": "core.22.db",
        "content-size": "39211008", "content-md5": "F44AC4AA3EE1FE32C7CF7BD44687EE6F",
    ] }

    private func parse(_ changes: [String: Any]) throws(ConferenceError) -> SCIManifest {
        var values = Self.valid
        for (key, value) in changes { values[key] = value }
        return try SCIManifest.parse(TestFiles.manifestJSON(values))
    }

    @Test func theAssignmentsExampleParses() throws {
        let manifest = try parse([:])
        #expect(manifest == SCIManifest(version: "22", downloadName: "sci-core.22.zip", downloadSize: 12_306_144,
                                        downloadMD5: "98a5fb6b992609736d4a8590cbd448e3", contentName: "core.22.db",
                                        contentSize: 39_211_008, contentMD5: "f44ac4aa3ee1fe32c7cf7bd44687ee6f"))
        let base = try #require(URL(string: "http://scriptures.byu.edu/is543/sci-core.json"))
        #expect(manifest.url(of: manifest.downloadName, relativeTo: base).absoluteString == "http://scriptures.byu.edu/is543/sci-core.22.zip")
    }

    @Test func numbersMayBeJSONNumbersAndUnknownKeysAreIgnored() throws {
        let manifest = try parse(["version": 23, "download-size": 100, "content-size": 200, "note": ["any": true]])
        #expect(manifest.version == "23")
        #expect(manifest.downloadSize == 100)
        #expect(manifest.contentSize == 200)
    }

    /// Each case: the key, its new value as JSON (`null` removes it), and the complaint.
    @Test(arguments: [
        ("download-name", #""../sci-core.zip""#, "“download-name” (“../sci-core.zip”) is not a plain file name"),
        ("download-name", #""/etc/passwd""#, "“download-name” (“/etc/passwd”) is not a plain file name"),
        ("content-name", #""dir/core.db""#, "“content-name” (“dir/core.db”) is not a plain file name"),
        ("content-name", #"".hidden""#, "“content-name” (“.hidden”) is not a plain file name"),
        ("content-name", #""core db""#, "“content-name” (“core db”) is not a plain file name"),
        ("content-name", #""""#, "“content-name” (“”) is not a plain file name"),
        ("download-size", #""-5""#, "“download-size” is not a positive whole number of bytes"),
        ("download-size", #""0""#, "“download-size” is not a positive whole number of bytes"),
        ("download-size", #""12.5""#, "“download-size” is not a positive whole number of bytes"),
        ("download-size", "12.5", "“download-size” is not a positive whole number of bytes"),
        ("content-size", #""lots""#, "“content-size” is not a positive whole number of bytes"),
        ("content-size", #""99999999999999""#, "“content-size” (99999999999999 bytes) is larger than Pocket accepts"),
        ("download-md5", #""abc""#, "“download-md5” is not an MD5 (32 hex digits)"),
        ("content-md5", #""zz5fb6b992609736d4a8590cbd448e3z""#, "“content-md5” is not an MD5 (32 hex digits)"),
        ("version", #""22; rm -rf""#, "“version” (“22; rm -rf”) is not a version number"),
        ("version", "null", "it has no “version”"),
        ("content-md5", "null", "it has no “content-md5”"),
        ("download-name", "5", "“download-name” is not text"),
    ])
    func everyValueIsChecked(_ key: String, _ json: String, _ problem: String) throws {
        var values = Self.valid
        values[key] = json == "null" ? nil : try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)
        #expect(throws: ConferenceError.invalidManifest(problem)) { try SCIManifest.parse(TestFiles.manifestJSON(values)) }
    }

    @Test func somethingThatIsNotJSONIsRefused() {
        #expect(throws: ConferenceError.invalidManifest("it is not a JSON object")) { try SCIManifest.parse(Data("<html>".utf8)) }
        #expect(throws: ConferenceError.invalidManifest("it is not a JSON object")) { try SCIManifest.parse(Data("[1, 2]".utf8)) }
    }

    @Test func aMatchNeedsTheVersionSizeAndMD5() throws {
        let manifest = try parse([:])
        let record = InstalledDatabase(version: "22", contentName: "core.22.db", contentSize: 39_211_008,
                                       contentMD5: "f44ac4aa3ee1fe32c7cf7bd44687ee6f", origin: .download, installedAt: Date(), fileName: "x")
        #expect(record.matches(manifest))
        #expect(!record.matches(try parse(["version": "23"])))
        #expect(!record.matches(try parse(["content-size": "39211009"])))
        #expect(!record.matches(try parse(["content-md5": "00000000000000000000000000000000"])))
    }
}
