import Foundation
import Logging
import PocketCore
import Testing
import X509
@testable import PocketTLS

@Suite("Renewing the leaf certificate while Pocket runs")
struct LeafRenewalTests {
    private struct Fixture {
        let folder: TLSFolder
        let date: TestDate
        let names: TestNames
        let keeper: LeafKeeper
    }

    private func fixture() throws -> Fixture {
        let root = temporaryFolder()
        let date = TestDate(Date(timeIntervalSince1970: 1_790_000_000))
        let names = TestNames(householdNames)
        let folder = TLSFolder(dataDirectory: root)
        let authority = try folder.authority(machine: "laptop", scope: householdScope, now: date.now)
        let keeper = try LeafKeeper(authority: authority, folder: folder, servedNames: { names.current }, now: { date.now })
        return Fixture(folder: folder, date: date, names: names, keeper: keeper)
    }

    @Test func aFittingLeafIsKeptAndNearExpiryItIsRenewedFromTheSameCA() throws {
        let f = try fixture()
        defer { try? FileManager.default.removeItem(at: f.folder.url.deletingLastPathComponent()) }
        let first = f.keeper.current
        #expect(try f.keeper.refresh() == nil)
        f.date.advance(days: 366)
        #expect(try f.keeper.refresh() == nil, "31 days before expiry the leaf still has a month to go")
        #expect(f.keeper.current.certificate.serialNumber == first.certificate.serialNumber)

        f.date.advance(days: 1.5)
        let reason = try #require(try f.keeper.refresh())
        #expect(reason.hasPrefix("it expires on"))
        let renewed = f.keeper.current
        #expect(renewed.certificate.serialNumber != first.certificate.serialNumber)
        #expect(renewed.certificate.issuer == f.keeper.authority.certificate.subject)
        #expect(f.keeper.authority.certificate.publicKey.isValidSignature(renewed.certificate.signature, for: renewed.certificate))
        #expect(renewed.expires > f.date.now.addingTimeInterval(390 * 86400))
        // What is on disk is what is served, and what the next start picks up.
        #expect(f.folder.storedLeaf()?.certificate == renewed.certificate)
    }

    @Test func aNewAddressGetsANewLeafAndTheSameAddressesDoNot() throws {
        let f = try fixture()
        defer { try? FileManager.default.removeItem(at: f.folder.url.deletingLastPathComponent()) }
        #expect(f.keeper.current.addresses.contains("192.168.1.20"))
        // The same set in another order is the same set.
        f.names.set(ServedNames(names: householdNames.names.reversed(), addresses: householdNames.addresses.reversed()))
        #expect(try f.keeper.refresh() == nil)

        f.names.set(ServedNames(names: householdNames.names, addresses: ["192.168.1.31", "127.0.0.1", "::1"]))
        #expect(try f.keeper.refresh() == "the names and addresses Pocket is reached at changed")
        #expect(f.keeper.current.addresses == ["192.168.1.31", "127.0.0.1", "::1"])
        #expect(f.keeper.current.names == ["pocket.test", "laptop.local", "localhost"])
    }

    @Test func aRestartKeepsAFittingLeafAndReplacesOneFromAnotherCA() throws {
        let f = try fixture()
        defer { try? FileManager.default.removeItem(at: f.folder.url.deletingLastPathComponent()) }
        let again = try LeafKeeper(authority: f.keeper.authority, folder: f.folder, servedNames: { f.names.current }, now: { f.date.now })
        #expect(again.current.certificate == f.keeper.current.certificate)

        let otherCA = try CertificateAuthority.make(machine: "other", scope: householdScope, now: f.date.now)
        let replaced = try LeafKeeper(authority: otherCA, folder: f.folder, servedNames: { f.names.current }, now: { f.date.now })
        #expect(replaced.current.certificate.issuer == otherCA.certificate.subject)
        #expect(f.keeper.current.reasonToRenew(authority: otherCA, served: f.names.current, now: f.date.now) == "it was not issued by this certificate authority")
    }

    /// Issue #33: near the authority's end a leaf never outlives it, is not renewed over and over
    /// for that, and the owner is warned a year ahead with what to do.
    @Test func nearTheAuthoritysEndALeafNeverOutlivesItAndTheOwnerIsWarned() throws {
        let made = Date(timeIntervalSince1970: 1_790_000_000)
        let authority = try CertificateAuthority.make(machine: "laptop", scope: householdScope, now: made)
        let end = authority.certificate.notValidAfter
        let late = end.addingTimeInterval(-200 * 86400)
        let leaf = try LeafCertificate.issue(by: authority, for: householdNames, now: late)
        #expect(leaf.expires == end)
        #expect(leaf.reasonToRenew(authority: authority, served: householdNames, now: end.addingTimeInterval(-10 * 86400)) == nil)

        #expect(TLSError.authorityEndingWarning(authority, folder: "/d/tls", now: made) == nil)
        let warning = try #require(TLSError.authorityEndingWarning(authority, folder: "/d/tls", now: late))
        #expect(warning.contains(end.formatted(.iso8601.year().month().day())) && warning.contains("rm -r '/d/tls'"))
    }

    /// Issue #33: a leaf key others may read is refused as the CA's key is, with what to do.
    @Test func aKeptLeafKeyOthersMayReadIsRefused() throws {
        let f = try fixture()
        defer { try? FileManager.default.removeItem(at: f.folder.url.deletingLastPathComponent()) }
        #expect(chmod(f.folder.leafKey.path, 0o644) == 0)
        #expect(throws: TLSError.keyReadableByOthers(path: f.folder.leafKey.path, folder: f.folder.url.path)) {
            try LeafKeeper(authority: f.keeper.authority, folder: f.folder, servedNames: { f.names.current }, now: { f.date.now })
        }
        #expect(chmod(f.folder.leafKey.path, 0o600) == 0)
        #expect(try LeafKeeper(authority: f.keeper.authority, folder: f.folder, servedNames: { f.names.current }, now: { f.date.now }).current.certificate == f.keeper.current.certificate)
    }

    @Test func thePeriodicCheckRenewsOnTheClocksTickWithoutSleeping() async throws {
        let f = try fixture()
        defer { try? FileManager.default.removeItem(at: f.folder.url.deletingLastPathComponent()) }
        let clock = ManualClock()
        let first = f.keeper.current.certificate.serialNumber
        let loop = Task { await f.keeper.keepRenewing(every: .seconds(60), clock: clock, logger: Logger(label: "test")) }
        defer { loop.cancel() }

        await clock.waitForSleeper()
        f.names.set(ServedNames(names: householdNames.names, addresses: ["10.0.0.7", "127.0.0.1", "::1"]))
        clock.advance(by: .seconds(59))
        #expect(f.keeper.current.certificate.serialNumber == first, "nothing is checked before the minute is up")
        #expect(clock.sleeping == 1)

        clock.advance(by: .seconds(1))
        // The loop checks, then sleeps again: once it sleeps, the check is done.
        while clock.sleeping == 0 || f.keeper.current.certificate.serialNumber == first {
            await Task.yield()
        }
        #expect(f.keeper.current.addresses == ["10.0.0.7", "127.0.0.1", "::1"])
        loop.cancel()
        await loop.value
    }
}
