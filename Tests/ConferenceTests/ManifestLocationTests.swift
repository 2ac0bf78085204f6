import Conference
import Foundation
import Testing

/// The manifest address shared by `pocket conference update` and `pocket serve`.
@Suite("Manifest location")
struct ManifestLocationTests {
    @Test func theOptionWinsThenTheEnvironmentThenTheDefault() throws {
        let environment = ["POCKET_SCI_MANIFEST_URL": "http://127.0.0.1:8000/sci-core.json"]
        #expect(try ManifestLocation.resolve(option: "https://mirror.example/sci.json", environment: environment).absoluteString == "https://mirror.example/sci.json")
        #expect(try ManifestLocation.resolve(option: nil, environment: environment).absoluteString == "http://127.0.0.1:8000/sci-core.json")
        #expect(try ManifestLocation.resolve(option: "", environment: ["POCKET_SCI_MANIFEST_URL": ""]).absoluteString == SCIManifest.defaultURL)
    }

    @Test func onlyHTTPAddressesWithAHostAreAccepted() {
        for bad in ["ftp://example.com/x.json", "not a url", "file:///etc/passwd", "http://", "sci-core.json"] {
            #expect(throws: ManifestLocation.InvalidURL(text: bad)) { try ManifestLocation.resolve(option: bad, environment: [:]) }
        }
        #expect(ManifestLocation.InvalidURL(text: "x").description == "invalid manifest URL 'x': use an http or https address such as \(SCIManifest.defaultURL)")
    }
}
