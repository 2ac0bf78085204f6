import Foundation
import PocketCore
import Testing
@testable import Converter

/// The on-disk store keeps each person's state until the next commit: these check that a kept
/// state is never older than the file, whoever wrote to it.
@Suite("Converter kept states")
struct ConverterMemoTests {
    static func file() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("converter-memo-\(UUID().uuidString).sqlite")
    }

    static func remove(_ url: URL) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }

    @Test func aChangeShowsAtOnceThroughThisStoreAndAnother() async throws {
        let url = Self.file()
        defer { Self.remove(url) }
        let server = try ConverterDatabase.onDisk(at: url)
        #expect(try await server.store(for: .firstOwner).state().category == ConverterState.firstLaunch.category)
        // A key pressed through the store that kept the state
        _ = try await server.store(for: .firstOwner).update { state in state.switchCategory(to: .temperature) }
        #expect(try await server.store(for: .firstOwner).state().category == .temperature)
        // A change through a second connection to the file (another process)
        let other = try ConverterDatabase.onDisk(at: url)
        _ = try await other.store(for: .firstOwner).update { state in state.switchCategory(to: .length) }
        #expect(try await server.store(for: .firstOwner).state().category == .length)
    }

    @Test func onePersonsKeptStateNeverAnswersForAnother() async throws {
        let url = Self.file()
        defer { Self.remove(url) }
        let database = try ConverterDatabase.onDisk(at: url)
        let second = PersonID(rawValue: 2)
        _ = try await database.store(for: .firstOwner).update { state in state.switchCategory(to: .temperature) }
        _ = try await database.store(for: second).update { state in state.switchCategory(to: .length) }
        for _ in 0..<2 {  // the second time from memory
            #expect(try await database.store(for: .firstOwner).state().category == .temperature)
            #expect(try await database.store(for: second).state().category == .length)
        }
    }
}
