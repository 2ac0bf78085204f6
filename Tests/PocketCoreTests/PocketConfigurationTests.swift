import Foundation
import Logging
import Testing
@testable import PocketCore

@Suite("Configuration resolution")
struct PocketConfigurationTests {
    private let home = ["HOME": "/home/ada"]

    @Test func defaultsAreLoopbackPort8080AndXDGFallback() throws {
        let configuration = try PocketConfiguration.resolve(options: .init(), environment: home)
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.logLevel == .info)
        #expect(configuration.tls == nil)
        #expect(configuration.dataDirectory.path == "/home/ada/.local/share/pocket")
        #expect(configuration.isLoopback)
        #expect(configuration.baseURL == "http://127.0.0.1:8080")
    }

    @Test func pocketKeepsEveryCacheLayerAndABenchmarkPassesThroughOnlyWhatItNames() {
        #expect(CacheLayer.allCases.allSatisfy { Caches.all.keeps($0) })
        let without = Caches(passThrough: [.pageMemo, .signInCache])
        #expect(!without.keeps(.pageMemo) && !without.keeps(.signInCache))
        #expect(without.keeps(.screenMemo) && without.keeps(.muralsMemo) && without.keeps(.digest))
        // CommitCache names the sign-in cache and the four stores' memos together.
        let commits = Caches(passThrough: [.commitCache])
        #expect([CacheLayer.signInCache, .muralsMemo, .platesMemo, .converterMemo, .conferenceStateMemo].allSatisfy { !commits.keeps($0) })
        #expect(commits.keeps(.pageMemo) && commits.keeps(.boundedMemo) && commits.keeps(.screenMemo) && commits.keeps(.digest))
    }

    @Test func cacheLayerNamesAreMatchedWholeAndCaseBlind() {
        #expect(CacheLayer.layers(named: "CommitCache") == [.commitCache])
        #expect(CacheLayer.layers(named: "") == [])
        #expect(CacheLayer.layers(named: "Nope") == nil)
        #expect(CacheLayer.layers(named: "Page") == nil)
    }

    @Test func xdgDataHomeWins() throws {
        let configuration = try PocketConfiguration.resolve(options: .init(), environment: home.merging(["XDG_DATA_HOME": "/srv/data"]) { $1 })
        #expect(configuration.dataDirectory.path == "/srv/data/pocket")
    }

    @Test func environmentFillsWhatOptionsLeaveOut() throws {
        let environment = home.merging([
            "POCKET_HOST": "0.0.0.0", "POCKET_PORT": "9000", "POCKET_DATA_DIR": "/var/pocket", "POCKET_LOG_LEVEL": "DEBUG",
        ]) { $1 }
        let configuration = try PocketConfiguration.resolve(options: .init(), environment: environment)
        #expect(configuration.host == "0.0.0.0")
        #expect(configuration.port == 9000)
        #expect(configuration.dataDirectory.path == "/var/pocket")
        #expect(configuration.logLevel == .debug)
        #expect(!configuration.isLoopback)
    }

    @Test func optionsOverrideEnvironment() throws {
        let environment = home.merging(["POCKET_PORT": "9000", "POCKET_DATA_DIR": "/var/pocket"]) { $1 }
        let options = PocketConfiguration.Options(port: "8181", dataDirectory: "~/pocket-data")
        let configuration = try PocketConfiguration.resolve(options: options, environment: environment)
        #expect(configuration.port == 8181)
        #expect(configuration.dataDirectory.path == "/home/ada/pocket-data")
    }

    @Test(arguments: ["-1", "65536", "eighty", "80.5", "8 0"])
    func invalidPortsAreRefused(_ port: String) {
        #expect(throws: ConfigurationError.invalidPort(port)) {
            try PocketConfiguration.resolve(options: .init(port: port), environment: home)
        }
    }

    /// One rule for every setting (`Setting.given`): spaces around a value are not part of it, as
    /// a settings file's `POCKET_PORT=8443 ` line easily has them, and a blank value is not given.
    @Test func spacesAroundAValueAreDroppedAndABlankOneIsNotGiven() throws {
        var environment = home
        environment["POCKET_PORT"] = "8181 "
        environment["POCKET_HOST"] = "   "
        let configuration = try PocketConfiguration.resolve(options: .init(), environment: environment)
        #expect(configuration.port == 8181 && configuration.host == PocketConfiguration.defaultHost)
    }

    @Test func portZeroMeansAnyFreePort() throws {
        #expect(try PocketConfiguration.resolve(options: .init(port: "0"), environment: home).port == 0)
    }

    @Test(arguments: ["exa mple", "<host>", "host/path"])
    func implausibleHostsAreRefused(_ host: String) {
        #expect(throws: ConfigurationError.invalidHost(host)) {
            try PocketConfiguration.resolve(options: .init(host: host), environment: home)
        }
    }

    @Test func ipv6HostIsBracketedInURL() throws {
        let configuration = try PocketConfiguration.resolve(options: .init(host: "::1", port: "8443"), environment: home)
        #expect(configuration.isLoopback)
        #expect(configuration.baseURL == "http://[::1]:8443")
    }

    @Test func unknownLogLevelNamesTheChoices() {
        do {
            _ = try PocketConfiguration.resolve(options: .init(logLevel: "loud"), environment: home)
            Issue.record("expected an error")
        } catch {
            #expect(error == .invalidLogLevel("loud"))
            #expect(error.description.contains("trace, debug, info, notice, warning, error, critical"))
        }
    }

    @Test func tlsNeedsBothHalves() throws {
        #expect(throws: ConfigurationError.incompleteTLS) {
            try PocketConfiguration.resolve(options: .init(tlsCertificate: "/c.pem"), environment: home)
        }
        #expect(throws: ConfigurationError.incompleteTLS) {
            try PocketConfiguration.resolve(options: .init(), environment: home.merging(["POCKET_TLS_KEY": "/k.pem"]) { $1 })
        }
        let configuration = try PocketConfiguration.resolve(options: .init(tlsCertificate: "/c.pem", tlsKey: "/k.pem"), environment: home)
        #expect(configuration.tls == .init(certificate: "/c.pem", key: "/k.pem"))
        #expect(configuration.baseURL.hasPrefix("https://"))
    }
}
