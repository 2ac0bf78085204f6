import Foundation
import Testing
@testable import PocketCore

@Suite("People store")
struct PeopleDatabaseTests {
    @Test func theFirstPersonIsAlwaysTheOwnerWithIDOne() async throws {
        let people = try PeopleDatabase.inMemory()
        #expect(try await people.isEmpty())
        let first = try await people.addPerson(name: "  Ann ", password: "long enough", isOwner: false)
        #expect(first.id == .firstOwner)
        #expect(first.isOwner)
        #expect(first.name == "Ann")
        let second = try await people.addPerson(name: "Bea", password: "long enough", isOwner: false)
        #expect(!second.isOwner)
        #expect(try await people.people().map(\.name) == ["Ann", "Bea"])
    }

    @Test func namesAndPasswordsAreCheckedWithReasons() async throws {
        let people = try PeopleDatabase.inMemory()
        _ = try await people.addPerson(name: "Ann", password: "long enough", isOwner: true)
        await #expect(throws: PeopleError.nameTaken("ANN")) { try await people.addPerson(name: "ANN", password: "long enough", isOwner: false) }
        await #expect(throws: PeopleError.invalidName("it is empty")) { try await people.addPerson(name: "  ", password: "long enough", isOwner: false) }
        await #expect(throws: PeopleError.invalidName("it has control characters")) { try await people.addPerson(name: "a\u{1B}[2J", password: "long enough", isOwner: false) }
        await #expect(throws: PeopleError.invalidPassword("it needs at least 8 characters")) { try await people.addPerson(name: "Cal", password: "short", isOwner: false) }
        await #expect(throws: PeopleError.invalidPassword("it is longer than 72 bytes")) { try await people.addPerson(name: "Cal", password: String(repeating: "é", count: 37), isOwner: false) }
    }

    @Test func passwordsAreBcryptHashedAndVerified() async throws {
        let people = try PeopleDatabase.inMemory()
        _ = try await people.addPerson(name: "Ann", password: "correct horse", isOwner: true)
        let stored = try await people.writer.read { db in try String.fetchOne(db, sql: "SELECT passwordHash FROM person") }
        #expect(stored?.hasPrefix("$2b$") == true)
        #expect(stored?.contains("correct horse") == false)
        #expect(try await people.verify(name: "ann", password: "correct horse")?.name == "Ann")
        #expect(try await people.verify(name: "Ann", password: "correct horsE") == nil)
        #expect(try await people.verify(name: "Nobody", password: "correct horse") == nil)
        try await people.setPassword(named: "Ann", to: "battery staple")
        #expect(try await people.verify(name: "Ann", password: "correct horse") == nil)
        #expect(try await people.verify(name: "Ann", password: "battery staple") != nil)
    }

    @Test func theLastOwnerCannotBeRemovedAndRemovingSignsDevicesOut() async throws {
        let people = try PeopleDatabase.inMemory()
        let ann = try await people.addPerson(name: "Ann", password: "long enough", isOwner: true)
        let bea = try await people.addPerson(name: "Bea", password: "long enough", isOwner: false)
        await #expect(throws: PeopleError.lastOwner("Ann")) { try await people.removePerson(named: "Ann") }
        let device = try await people.addDevice(for: bea.id, userAgent: nil)
        try await people.storeSession(key: "k", value: Data("{}".utf8), expires: nil, deviceID: device.id)
        try await people.removePerson(named: "bea")
        #expect(try await people.signedIn(deviceID: device.id) == nil)
        #expect(try await people.loadSession(key: "k") == nil)
        #expect(try await people.person(id: ann.id) != nil)
        // Ids are never reused, so nobody inherits Bea's data.
        let cal = try await people.addPerson(name: "Cal", password: "long enough", isOwner: false)
        #expect(cal.id.rawValue > bea.id.rawValue)
    }

    @Test func devicesBelongToTheirPersonAndCarryTheirOwnToken() async throws {
        let people = try PeopleDatabase.inMemory()
        let ann = try await people.addPerson(name: "Ann", password: "long enough", isOwner: true)
        let bea = try await people.addPerson(name: "Bea", password: "long enough", isOwner: false)
        let phone = try await people.addDevice(for: ann.id, userAgent: "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36")
        #expect(phone.name == "Chrome on Android")
        #expect(RandomToken.isWellFormed(phone.csrfToken))
        #expect(try await people.removeDevice(id: phone.id, of: bea.id) == false)
        #expect(try await people.signedIn(deviceID: phone.id)?.person.name == "Ann")
        #expect(try await people.removeDevice(id: phone.id, of: ann.id))
        #expect(try await people.signedIn(deviceID: phone.id) == nil)
    }

    @Test func storedSessionsExpireAndKeepTheirExpiryWhenUpdatedWithoutOne() async throws {
        let people = try PeopleDatabase.inMemory()
        let later = Date().addingTimeInterval(3600)
        try await people.storeSession(key: "a", value: Data("1".utf8), expires: later, deviceID: nil)
        #expect(try await people.storeSession(key: "a", value: Data("2".utf8), expires: nil, deviceID: nil, onlyIfNew: true) == false)
        try await people.storeSession(key: "a", value: Data("3".utf8), expires: nil, deviceID: nil)
        let loaded = try #require(try await people.loadSession(key: "a"))
        #expect(loaded.value == Data("3".utf8))
        #expect(abs((loaded.expires ?? .distantPast).timeIntervalSince(later)) < 0.01)
        #expect(try await people.loadSession(key: "a", at: later.addingTimeInterval(1)) == nil)
    }

    @Test func aPairingCodeWorksOnceWithinFiveMinutes() async throws {
        let people = try PeopleDatabase.inMemory()
        let ann = try await people.addPerson(name: "Ann", password: "long enough", isOwner: true)
        let now = Date()
        let code = try await people.makePairingCode(for: ann.id, at: now)
        #expect(code.shortCode.count == 8)
        #expect(RandomToken.isWellFormed(code.linkCode))
        #expect(try await people.pairingPerson(code: code.linkCode, at: now)?.id == ann.id)
        #expect(try await people.redeemPairingCode(code.linkCode, at: now).id == ann.id)
        await #expect(throws: PeopleError.pairingCodeInvalid) { try await people.redeemPairingCode(code.shortCode, at: now) }

        let typed = try await people.makePairingCode(for: ann.id, at: now)
        let sloppy = typed.displayedShortCode.lowercased().replacingOccurrences(of: "0", with: "o")
        #expect(try await people.redeemPairingCode(sloppy, at: now).id == ann.id)

        let late = try await people.makePairingCode(for: ann.id, at: now)
        await #expect(throws: PeopleError.pairingCodeInvalid) { try await people.redeemPairingCode(late.linkCode, at: now.addingTimeInterval(301)) }
        // Only digests are stored.
        let stored = try await people.writer.read { db in try String.fetchAll(db, sql: "SELECT linkHash || shortHash FROM pairing") }
        #expect(!stored.contains { $0.contains(late.linkCode) || $0.contains(late.shortCode) })
    }
}

@Suite("Attempt throttle")
struct AttemptThrottleTests {
    @Test func fiveFreeAttemptsThenADoublingWait() async {
        let throttle = AttemptThrottle(baseDelay: 10)
        let start = Date()
        for n in 0..<5 {
            #expect(await throttle.reserve(["a"], at: start.addingTimeInterval(Double(n))) == nil)
        }
        let last = start.addingTimeInterval(4)
        #expect(await throttle.reserve(["a"], at: last) == 10)
        #expect(await throttle.reserve(["b", "a"], at: last.addingTimeInterval(3)) == 7, "a wait under any key is the wait")
        // An attempt refused by a wait is not counted, so the wait does not grow while waiting.
        #expect(await throttle.reserve(["a"], at: last.addingTimeInterval(10)) == nil)
        #expect(await throttle.reserve(["a"], at: last.addingTimeInterval(10)) == 20)
        await throttle.recordSuccess(["a"])
        #expect(await throttle.reserve(["a"], at: last.addingTimeInterval(10)) == nil)
    }

    /// Attempts are counted when taken, not when they fail: 40 at once, only the free five go on.
    @Test func fortyAttemptsAtOnceLetOnlyTheFreeOnesThrough() async {
        let throttle = AttemptThrottle()
        let now = Date()
        let allowed = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<40 { group.addTask { await throttle.reserve(["signin-address:10.0.0.9"], at: now) == nil } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(allowed == 5)
    }
}

@Suite("Pairing output")
struct PairingOutputTests {
    @Test func qrCodesComeFromLibqrencode() throws {
        let code = try #require(QRCode("https://192.168.1.20:8080/join/abc"))
        #expect(code.size >= 21 && (code.size - 17) % 4 == 0)
        // The three finder patterns: dark 7×7 corners with a light ring inside.
        for (row, column) in [(0, 0), (0, code.size - 7), (code.size - 7, 0)] {
            #expect(code.isDark(row: row, column: column))
            #expect(!code.isDark(row: row + 1, column: column + 1))
            #expect(code.isDark(row: row + 3, column: column + 3))
        }
        let lines = code.terminalText.split(separator: "\n")
        #expect(lines.count == (code.size + 4 + 1) / 2)
        #expect(lines.allSatisfy { $0.count == code.size + 4 })
        #expect(code.svg.hasPrefix("<svg"))
    }

    @Test func terminalTextShowsControlCharactersInsteadOfObeyingThem() {
        #expect(TerminalText.safe("a\u{1B}[2Jb\u{7}\tc") == "a\\u{1b}[2Jb\\u{7}\tc")
        #expect(TerminalText.safe("Zoë") == "Zoë")
    }

    @Test func reachableAddressesNeverSayAllInterfaces() {
        let one = PhoneLinks(hosts: ServedNames.live(configuredNames: [], bindHost: "192.168.1.20").phoneHosts, secure: true, port: 8080, trustPage: nil)
        #expect(one.baseURLs == ["https://192.168.1.20:8080"])
        let all = PhoneLinks(hosts: ServedNames.live(configuredNames: [], bindHost: "0.0.0.0").phoneHosts, secure: false, port: 9000, trustPage: nil).baseURLs
        #expect(!all.isEmpty)
        #expect(all.allSatisfy { $0.hasPrefix("http://") && $0.hasSuffix(":9000") && !$0.contains("0.0.0.0") && !$0.contains("127.0.0.1") || all == ["http://127.0.0.1:9000"] })
    }

    @Test func deviceNamesComeFromUserAgents() {
        #expect(DeviceName.from(userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1") == "Safari on iPhone")
        #expect(DeviceName.from(userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0 Safari/537.36") == "Headless Chrome on Linux")
        #expect(DeviceName.from(userAgent: nil) == "Unknown browser")
    }
}
