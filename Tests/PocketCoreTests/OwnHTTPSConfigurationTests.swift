import Foundation
import Testing
@testable import PocketCore

@Suite("Configuration of Pocket's own HTTPS, ports and names")
struct OwnHTTPSConfigurationTests {
    private let home = ["HOME": "/home/ada"]

    private func resolve(_ options: PocketConfiguration.Options = .init(), _ environment: [String: String] = [:]) throws -> PocketConfiguration {
        try PocketConfiguration.resolve(options: options, environment: home.merging(environment) { $1 })
    }

    @Test func loopbackStaysPlainHTTPOn8080() throws {
        let configuration = try resolve()
        #expect(!configuration.usesOwnCertificateAuthority && !configuration.isHTTPS)
        #expect(configuration.port == 8080 && configuration.httpPort == nil)
        #expect(configuration.baseURL == "http://127.0.0.1:8080")
    }

    @Test func bindingBeyondLoopbackTurnsOnPocketsOwnHTTPSOn8443WithTheTrustPageOn8080() throws {
        let configuration = try resolve(.init(host: "0.0.0.0"))
        #expect(configuration.usesOwnCertificateAuthority && configuration.isHTTPS)
        #expect(configuration.port == 8443 && configuration.httpPort == 8080)
        #expect(configuration.baseURL == "https://0.0.0.0:8443")
    }

    @Test func httpsOnLoopbackAndNoHTTPSBeyondIt() throws {
        let on = try resolve(.init(https: true))
        #expect(on.usesOwnCertificateAuthority && on.port == 8443 && on.httpPort == 8080)
        let off = try resolve(.init(host: "0.0.0.0", https: false))
        #expect(!off.usesOwnCertificateAuthority && !off.isHTTPS && off.port == 8080 && off.httpPort == nil)
    }

    @Test func thePersonsOwnCertificateKeepsPort8080AndNeedsNoCA() throws {
        let own = try resolve(.init(host: "0.0.0.0", tlsCertificate: "c.pem", tlsKey: "k.pem"))
        #expect(!own.usesOwnCertificateAuthority && own.isHTTPS && own.port == 8080 && own.httpPort == nil)
        let withPlain = try resolve(.init(tlsCertificate: "c.pem", tlsKey: "k.pem", httpPort: "8081"))
        #expect(withPlain.httpPort == 8081)
        #expect(throws: ConfigurationError.conflictingHTTPS) { try resolve(.init(tlsCertificate: "c.pem", tlsKey: "k.pem", https: false)) }
    }

    @Test func theEnvironmentFillsInAndTheOptionWins() throws {
        let environment = ["POCKET_HTTPS": "yes", "POCKET_HTTP_PORT": "9080", "POCKET_NAME": "Pocket.Test, nas.lan", "POCKET_PORT": "9443"]
        let fromEnvironment = try resolve(.init(), environment)
        #expect(fromEnvironment.usesOwnCertificateAuthority && fromEnvironment.port == 9443 && fromEnvironment.httpPort == 9080)
        #expect(fromEnvironment.names == ["pocket.test", "nas.lan"])
        let options = try resolve(.init(port: "7443", https: false, names: ["kitchen.local", "kitchen.local"]), ["POCKET_HTTPS": "1", "POCKET_NAME": "x.lan"])
        #expect(!options.usesOwnCertificateAuthority && options.port == 7443 && options.names == ["kitchen.local"])
        #expect(try resolve(.init(host: "0.0.0.0"), ["POCKET_HTTPS": "off"]).usesOwnCertificateAuthority == false)
        #expect(try resolve(.init(), ["POCKET_NAME": ""]).names.isEmpty)
    }

    @Test func badValuesAreOneClearLine() {
        #expect(throws: ConfigurationError.invalidOption(option: "POCKET_HTTPS", value: "maybe", expected: "1 or 0 (true/false, yes/no, on/off)")) { try resolve(.init(), ["POCKET_HTTPS": "maybe"]) }
        #expect(throws: ConfigurationError.invalidOption(option: "http-port", value: "80a", expected: "a number from 0 to 65535")) { try resolve(.init(https: true, httpPort: "80a")) }
        #expect(throws: ConfigurationError.httpPortWithoutHTTPS) { try resolve(.init(httpPort: "8081")) }
        #expect(throws: ConfigurationError.samePorts(9000)) { try resolve(.init(port: "9000", https: true, httpPort: "9000")) }
        #expect(throws: Never.self) { try resolve(.init(port: "0", https: true, httpPort: "0")) }
        for bad in ["bad_name", "-pocket.local", "pocket..local", "192.168.1.20", "::1", "pocket.local/x", "name with space", "123"] {
            #expect(throws: ConfigurationError.invalidName(bad), "\(bad)") { try resolve(.init(names: [bad])) }
        }
        #expect(ConfigurationError.invalidOption(option: "http-port", value: "x", expected: "a number from 0 to 65535").description == "invalid --http-port 'x': use a number from 0 to 65535")
    }
}

@Suite("Served names and the links phones are given")
struct ServedNamesTests {
    @Test func aLANServerServesItsNamesFirstThenItsAddressesThenLoopback() {
        let served = ServedNames.discover(configuredNames: ["pocket.test"], bindHost: "0.0.0.0", machineName: "laptop.local",
                                          interfaceAddresses: ["192.168.1.20", "10.0.0.5", "fd00::5"])
        #expect(served.names == ["pocket.test", "laptop.local", "localhost"])
        #expect(served.addresses == ["192.168.1.20", "10.0.0.5", "127.0.0.1", "::1"])
        #expect(served.phoneHosts == ["pocket.test", "laptop.local", "192.168.1.20", "10.0.0.5"])
        #expect(served.contains(host: "LAPTOP.local") && served.contains(host: "127.0.0.1") && served.contains(host: "0:0:0:0:0:0:0:1"))
        #expect(!served.contains(host: "evil.example") && !served.contains(host: "192.168.1.21"))
        let dualStack = ServedNames.discover(configuredNames: [], bindHost: "::", machineName: nil, interfaceAddresses: ["192.168.1.20", "fd00::5"])
        #expect(dualStack.addresses == ["192.168.1.20", "fd00::5", "127.0.0.1", "::1"])
    }

    @Test func aLoopbackServerIsReachedFromThisMachineOnly() {
        let served = ServedNames.discover(configuredNames: [], bindHost: "127.0.0.1", machineName: "laptop.local", interfaceAddresses: ["192.168.1.20"])
        #expect(served.names == ["localhost"])
        #expect(served.addresses == ["127.0.0.1", "::1"])
        #expect(served.phoneHosts == ["127.0.0.1"])
        let named = ServedNames.discover(configuredNames: ["pocket.test"], bindHost: "127.0.0.1", machineName: nil, interfaceAddresses: [])
        #expect(named.phoneHosts == ["pocket.test"])
        let one = ServedNames.discover(configuredNames: [], bindHost: "192.168.1.20", machineName: nil, interfaceAddresses: ["192.168.1.20", "10.0.0.5"])
        #expect(one.addresses == ["192.168.1.20", "127.0.0.1", "::1"])
    }

    @Test func linksGoStraightToThePathOrThroughTheTrustPageWithThePathInTheFragment() {
        let plain = PhoneLinks(hosts: ["laptop.local", "192.168.1.20", "fd00::5"], secure: false, port: 8080, trustPage: nil)
        #expect(plain.links(to: "/join/abc") == ["http://laptop.local:8080/join/abc", "http://192.168.1.20:8080/join/abc", "http://[fd00::5]:8080/join/abc"])
        let own = PhoneLinks(hosts: ["laptop.local", "192.168.1.20"], secure: true, port: 8443, trustPage: .init(port: 8080, path: "/trust"))
        #expect(own.baseURLs == ["https://laptop.local:8443", "https://192.168.1.20:8443"])
        #expect(own.links(to: "/join/abc") == ["http://laptop.local:8080/trust#/join/abc", "http://192.168.1.20:8080/trust#/join/abc"])
        #expect(own.links(to: "/") == ["http://laptop.local:8080/trust", "http://192.168.1.20:8080/trust"])
    }

    @Test func hostHeadersAreReadOnlyWhenTheyAreAHostNameOrAnAddress() {
        #expect(HostName.host(ofAuthority: "Laptop.Local:8080") == "laptop.local")
        #expect(HostName.host(ofAuthority: "[fd00::5]:8080") == "fd00::5")
        #expect(HostName.host(ofAuthority: "192.168.1.20") == "192.168.1.20")
        for bad in ["<script>:80", "a b", "[fd00::5", "host:80:90", "host:8o", "", "evil.example/x"] {
            #expect(HostName.host(ofAuthority: bad) == nil, "\(bad)")
        }
        #expect(HostName.ipAddressText([0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5]) == "fd00::5")
    }
}
