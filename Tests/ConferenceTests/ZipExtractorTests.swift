import Foundation
import Testing
@testable import Conference

@Suite("Zip extraction")
struct ZipExtractorTests {
    private func extract(_ zip: Data, entry: String = "core.db", limit: Int64 = 1 << 20) throws(ConferenceError) -> (ZipExtractor.Extracted, Data) {
        let folder = TestFiles.folder("zip")
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = folder.appendingPathComponent("a.zip"), target = folder.appendingPathComponent("out")
        try? zip.write(to: archive)
        let extracted = try ZipExtractor.extract(archive: archive, entryName: entry, to: target, limit: limit, cancellation: Flag()) { _ in }
        return (extracted, (try? Data(contentsOf: target)) ?? Data())
    }

    @Test func theNamedEntryIsStreamedOutAndHashed() throws {
        let content = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        let zip = try TestFiles.zip([("readme.txt", Data("hi".utf8)), ("core.db", content)])
        let (extracted, data) = try extract(zip)
        #expect(data == content)
        #expect(extracted == ZipExtractor.Extracted(byteCount: 100_000, md5: TestFiles.md5(content)))
        // An entry in a folder is found by its name.
        let nested = try TestFiles.zip([("sci/core.db", content)], compress: false)
        #expect(try extract(nested).1 == content)
    }

    @Test func anEntryThatEscapesTheFolderRefusesTheWholeArchive() throws {
        for path in ["../core.db", "../../etc/cron.d/x", "/tmp/evil", "a/../../evil", "..\\evil.db", "C:\\evil.db"] {
            let zip = try TestFiles.zip([("core.db", Data("fine".utf8)), (path, Data("evil".utf8))])
            #expect(throws: ConferenceError.unsafeArchiveEntry(path)) { try extract(zip) }
        }
    }

    @Test func pathsAreJudgedByWhereTheyLand() {
        let folder = URL(fileURLWithPath: "/data/incoming")
        #expect(ZipExtractor.isSafe("core.db", in: folder))
        #expect(ZipExtractor.isSafe("a/b/../core.db", in: folder))
        #expect(ZipExtractor.isSafe("./core.db", in: folder))
        #expect(!ZipExtractor.isSafe("a/../../core.db", in: folder))
        #expect(!ZipExtractor.isSafe("", in: folder))
        #expect(!ZipExtractor.isSafe("~/core.db", in: folder))
    }

    @Test func anEntryLargerThanTheManifestAllowsIsRefusedBeforeWriting() throws {
        let zip = try TestFiles.zip([("core.db", Data(count: 5_000_000))])
        #expect(zip.count < 50_000)
        #expect(throws: ConferenceError.archiveEntryTooLarge(name: "core.db", limit: 1000)) { try extract(zip, limit: 1000) }
    }

    @Test func anEntryWhoseHeaderLiesIsStoppedAtTheLimit() throws {
        // A zip bomb that claims to be small: both headers say 100 bytes, the data inflates to 5 MB.
        var zip = try TestFiles.zip([("core.db", Data(count: 5_000_000))])
        Self.patchUncompressedSize(of: &zip, to: 100)
        #expect(throws: ConferenceError.archiveEntryTooLarge(name: "core.db", limit: 1000)) { try extract(zip, limit: 1000) }
    }

    @Test func damagedArchivesAreExplained() throws {
        #expect(throws: ConferenceError.corruptArchive("it is not a readable zip file")) { try extract(Data("not a zip at all".utf8)) }
        let zip = try TestFiles.zip([("core.db", Data(repeating: 65, count: 10_000))], compress: false)
        #expect(throws: ConferenceError.missingArchiveEntry("other.db")) { try extract(zip, entry: "other.db") }
        // Flip bytes inside the stored data: the CRC check catches it.
        var damaged = zip
        let start = try #require(damaged.firstRange(of: Data(repeating: 65, count: 100))).lowerBound
        damaged[start + 50] = 66
        #expect(throws: ConferenceError.corruptArchive("core.db fails its CRC check")) { try extract(damaged) }
        // Cut in half: the central directory is gone.
        #expect(throws: ConferenceError.self) { try extract(zip.prefix(zip.count / 2)) }
    }

    /// Rewrites the uncompressed size in every local and central header.
    static func patchUncompressedSize(of zip: inout Data, to size: UInt32) {
        let bytes = withUnsafeBytes(of: size.littleEndian) { Array($0) }
        func patch(signature: [UInt8], offset: Int) {
            var search = zip.startIndex
            while let range = zip[search...].firstRange(of: Data(signature)) {
                zip.replaceSubrange((range.lowerBound + offset)..<(range.lowerBound + offset + 4), with: bytes)
                search = range.upperBound
            }
        }
        patch(signature: [0x50, 0x4B, 0x03, 0x04], offset: 22)
        patch(signature: [0x50, 0x4B, 0x01, 0x02], offset: 24)
    }
}
