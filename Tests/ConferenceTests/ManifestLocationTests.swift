import Conference
import Foundation
import Testing

/// The manifest address shared by `pocket conference update` and `pocket serve`; reading and
/// checking `--manifest-url` and `POCKET_SCI_MANIFEST_URL` is PocketConfiguration's (PocketCoreTests).
@Suite("Manifest location")
struct ManifestLocationTests {
    @Test func theConfiguredAddressWinsOverTheDefault() throws {
        let mirror = try #require(URL(string: "https://mirror.example/sci.json"))
        #expect(ManifestLocation.url(configured: mirror) == mirror)
        #expect(ManifestLocation.url(configured: nil).absoluteString == SCIManifest.defaultURL)
    }
}
