import Foundation
import PocketCore
import Testing

@Suite("Service addresses")
struct ServiceAddressTests {
    @Test func theOptionWinsThenTheEnvironmentAndBlanksDoNotCount() {
        let setting = Settings.muralsURL
        let environment = ["POCKET_MURALS_URL": " http://env.example/feed "]
        #expect(setting.given(option: "http://option.example", environment: environment) == "http://option.example")
        #expect(setting.given(option: "  ", environment: environment) == "http://env.example/feed")
        #expect(setting.given(option: nil, environment: ["POCKET_MURALS_URL": ""]) == nil)
        #expect(setting.given(option: nil, environment: [:]) == nil)
    }

    @Test(arguments: ["http://127.0.0.1:8080/sci-core.json", "HTTPS://example.org/a?b=c"])
    func httpAddressesWithAHostAreAccepted(_ text: String) {
        #expect(ServiceAddress.httpURL(text)?.absoluteString == text)
    }

    @Test(arguments: ["ftp://example.org/x", "file:///etc/passwd", "http://", "example.org/feed", "javascript:alert(1)", ""])
    func everythingElseIsRefused(_ text: String) {
        #expect(ServiceAddress.httpURL(text) == nil)
    }
}

@Suite("Web origin")
struct WebOriginTests {
    @Test func defaultPortsAreFilledInAndOtherSchemesHaveNone() {
        #expect(WebOrigin.of(URL(string: "https://Example.org/a")!) == "https://example.org:443")
        #expect(WebOrigin.of(URL(string: "http://example.org:8080/a")!) == "http://example.org:8080")
        #expect(WebOrigin.of(URL(string: "http://example.org/")!) == WebOrigin.of(URL(string: "http://example.org:80/x")!))
        #expect(WebOrigin.of(URL(string: "ftp://example.org/")!) == nil)
        #expect(WebOrigin.of(URL(string: "file:///etc/passwd")!) == nil)
    }
}
