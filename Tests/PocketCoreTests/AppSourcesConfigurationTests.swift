import Foundation
import Testing
@testable import PocketCore

/// The apps' outside addresses and folders: read and checked only by `PocketConfiguration`.
@Suite("Configuration of the apps' sources")
struct AppSourcesConfigurationTests {
    @Test func nothingGivenLeavesEveryAppItsOwnDefault() throws {
        #expect(try PocketConfiguration.resolveAppSources(environment: [:]) == PocketConfiguration.AppSources())
        let blanks = ["POCKET_PLATES_IMAGE_BASE": "", "POCKET_MURALS_URL": " ", "POCKET_MURALS_IMAGES_URL": "", "POCKET_MURALS_TILES": "",
                      "POCKET_LEAFLET_DIR": "", "POCKET_SCI_MANIFEST_URL": "", "POCKET_SCI_TALKS_URL": "  "]
        #expect(try PocketConfiguration.resolveAppSources(manifestURL: "", environment: blanks) == PocketConfiguration.AppSources())
    }

    @Test func everyVariableIsReadIntoItsTypedValue() throws {
        let environment = [
            "POCKET_PLATES_IMAGE_BASE": "http://127.0.0.1:8123",
            "POCKET_MURALS_URL": "https://mirror.example/data2.php?class=newbrighton_murals",
            "POCKET_MURALS_IMAGES_URL": " http://127.0.0.1:9999/pics ",
            "POCKET_MURALS_TILES": "https://{s}.tile.example.org/{z}/{x}/{y}.png",
            "POCKET_LEAFLET_DIR": "/opt/leaflet",
            "POCKET_SCI_MANIFEST_URL": "http://127.0.0.1:8000/sci-core.json",
            "POCKET_SCI_TALKS_URL": "https://mirror.example/sci/",
        ]
        let sources = try PocketConfiguration.resolveAppSources(environment: environment)
        #expect(sources.platesImageBase?.absoluteString == "http://127.0.0.1:8123")
        #expect(sources.muralsEndpoint?.absoluteString == "https://mirror.example/data2.php?class=newbrighton_murals")
        #expect(sources.muralsImageBase?.absoluteString == "http://127.0.0.1:9999/pics")
        #expect(sources.muralsTileTemplate == "https://{s}.tile.example.org/{z}/{x}/{y}.png")
        #expect(sources.leafletDirectory?.path == "/opt/leaflet")
        #expect(sources.leafletDirectory?.hasDirectoryPath == true)
        #expect(sources.sciManifest?.absoluteString == "http://127.0.0.1:8000/sci-core.json")
        #expect(sources.sciTalks?.absoluteString == "https://mirror.example/sci/")
    }

    @Test func anOptionWinsOverItsVariable() throws {
        let environment = ["POCKET_SCI_MANIFEST_URL": "http://127.0.0.1:8000/sci-core.json", "POCKET_MURALS_URL": "http://127.0.0.1:8001/feed"]
        let sources = try PocketConfiguration.resolveAppSources(manifestURL: "https://mirror.example/sci.json", environment: environment)
        #expect(sources.sciManifest?.absoluteString == "https://mirror.example/sci.json")
        #expect(try PocketConfiguration.muralsEndpoint(option: "https://other.example/feed", environment: environment)?.absoluteString == "https://other.example/feed")
        #expect(try PocketConfiguration.muralsEndpoint(option: " ", environment: environment)?.absoluteString == "http://127.0.0.1:8001/feed")
    }

    @Test func aBadPlatesImageBaseIsRefusedNotDropped() {
        for bad in ["ftp://mirror.example", "127.0.0.1:8123", "http://", "not a url"] {
            #expect(throws: ConfigurationError.invalidOption(option: "POCKET_PLATES_IMAGE_BASE", value: bad, expected: "an http or https address such as http://127.0.0.1:8123")) {
                try PocketConfiguration.resolveAppSources(environment: ["POCKET_PLATES_IMAGE_BASE": bad])
            }
        }
        let error = ConfigurationError.invalidOption(option: "POCKET_PLATES_IMAGE_BASE", value: "ftp://x", expected: "an http or https address such as http://127.0.0.1:8123")
        #expect(error.description == "invalid POCKET_PLATES_IMAGE_BASE 'ftp://x': use an http or https address such as http://127.0.0.1:8123")
    }

    @Test(arguments: ["POCKET_MURALS_URL", "POCKET_MURALS_IMAGES_URL", "POCKET_SCI_MANIFEST_URL", "POCKET_SCI_TALKS_URL"])
    func aBadServiceAddressNamesItsVariable(_ variable: String) {
        for bad in ["ftp://example.org/x", "file:///etc/passwd", "javascript:alert(1)", "example.org/feed"] {
            let error = #expect(throws: ConfigurationError.self) {
                try PocketConfiguration.resolveAppSources(environment: [variable: bad])
            }
            #expect(error?.description.hasPrefix("invalid \(variable) '\(bad)': use an http or https address") == true)
        }
    }

    @Test func aBadOptionIsNamedAsTheOption() {
        let murals = #expect(throws: ConfigurationError.self) {
            try PocketConfiguration.muralsEndpoint(option: "ftp://example.org/murals", environment: [:])
        }
        #expect(murals?.description.hasPrefix("invalid --url 'ftp://example.org/murals': use an http or https address") == true)
        let manifest = #expect(throws: ConfigurationError.self) {
            try PocketConfiguration.sciManifest(option: "sci-core.json", environment: ["POCKET_SCI_MANIFEST_URL": "http://127.0.0.1:8000/sci-core.json"])
        }
        #expect(manifest?.description == "invalid --manifest-url 'sci-core.json': use an http or https address such as http://scriptures.byu.edu/is543/sci-core.json")
    }

    @Test func aBadMuralsURLStopsTheWholeResolution() {
        #expect(throws: ConfigurationError.self) {
            try PocketConfiguration.resolveAppSources(environment: ["POCKET_MURALS_URL": "ftp://example.org/x", "POCKET_PLATES_IMAGE_BASE": "http://127.0.0.1:8123"])
        }
    }

    @Test(arguments: ["https://tile.example.org/{z}/{x}.png", "javascript:alert(1)//{z}{x}{y}", "tile.example.org/{z}/{x}/{y}.png"])
    func aBadTileTemplateIsRefused(_ template: String) {
        #expect(throws: ConfigurationError.invalidOption(
            option: "POCKET_MURALS_TILES", value: template,
            expected: "an http or https tile address with {z}, {x} and {y}, such as https://tile.openstreetmap.org/{z}/{x}/{y}.png"
        )) {
            try PocketConfiguration.resolveAppSources(environment: ["POCKET_MURALS_TILES": template])
        }
    }

    @Test func tileTemplatesAreCheckedOnceForEveryone() {
        #expect(ServiceAddress.tileTemplate("http://127.0.0.1:8123/tiles/{z}/{x}/{y}.png") == "http://127.0.0.1:8123/tiles/{z}/{x}/{y}.png")
        #expect(ServiceAddress.tileTemplate("https://{s}.tile.example.org/{z}/{x}/{y}.png") != nil)
        #expect(ServiceAddress.tileTemplate("https://tile.example.org/{z}/{x}.png") == nil)
        #expect(ServiceAddress.tileTemplate("ftp://tile.example.org/{z}/{x}/{y}.png") == nil)
    }
}
