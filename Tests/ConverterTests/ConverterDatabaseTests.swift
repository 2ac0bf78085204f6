import Converter
import Foundation
import GRDB
import PocketCore
import Testing

/// The converter's store: one remembered state per person, each change one transaction.
@Suite("Converter store")
struct ConverterDatabaseTests {
    @Test func aNewStoreShowsTheFirstLaunchScreen() async throws {
        let store = try ConverterDatabase.inMemory().store(for: .firstOwner)
        let state = try await store.state()
        #expect(state == .firstLaunch)
        #expect(state.category == .data && state.convention == .binary)
        #expect(state.units == UnitPair(from: "byte", to: "byte"))
        #expect(state.input.display == "0")
    }

    @Test func changesAreSavedAndReturnWhatTheChangeReturned() async throws {
        let store = try ConverterDatabase.inMemory().store(for: .firstOwner)
        // Given a fresh store, When keys are pressed and a unit picked, Then the store remembers them.
        let first = try await store.update { state in state.press(.digit(1)) }
        #expect(first.result == .accepted)
        #expect(first.state.input.display == "1")
        _ = try await store.update { state in state.press(.digit(2)) }
        _ = try await store.update { state in try state.selectFromUnit("kilobyte") }
        let saved = try await store.state()
        #expect(saved.input.display == "12")
        #expect(saved.units == UnitPair(from: "kilobyte", to: "byte"))
        #expect(try saved.convertedValue().formatted() == "12,288")
    }

    @Test func aRefusedKeyIsReportedAndChangesNothing() async throws {
        let store = try ConverterDatabase.inMemory().store(for: .firstOwner)
        _ = try await store.update { state in state.press(.decimalPoint) }
        let second = try await store.update { state in state.press(.decimalPoint) }
        #expect(second.result == .ignored(.decimalPointAlreadyEntered))
        #expect(try await store.state().input.display == "0.")
    }

    @Test func aThrowingChangeSavesNothing() async throws {
        let store = try ConverterDatabase.inMemory().store(for: .firstOwner)
        _ = try await store.update { state in state.press(.digit(7)) }
        await #expect(throws: ConverterError.self) {
            try await store.update { state in
                state.press(.digit(8))
                try state.selectToUnit("kilogram")
            }
        }
        let saved = try await store.state()
        #expect(saved.input.display == "7")
        #expect(saved.units == UnitPair(from: "byte", to: "byte"))
    }

    @Test func theStateSurvivesReopeningTheFile() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("converter-\(UUID().uuidString).sqlite")
        defer {
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: url.path + suffix)
            }
        }
        // Given a state saved through one store…
        do {
            let store = try ConverterDatabase.onDisk(at: url).store(for: .firstOwner)
            _ = try await store.update { state in
                state.switchCategory(to: .temperature)
                state.press(.digit(4))
                state.press(.digit(0))
                state.press(.toggleSign)
                try state.selectToUnit("kelvin")
                state.setConvention(.iec)
            }
        }
        // …When the file is opened again (a restarted server), Then everything is back.
        let reopened = try await ConverterDatabase.onDisk(at: url).store(for: .firstOwner).state()
        #expect(reopened.category == .temperature)
        #expect(reopened.input.display == "−40")
        #expect(reopened.units == UnitPair(from: "celsius", to: "kelvin"))
        #expect(reopened.convention == .iec)
        #expect(try reopened.convertedValue().formatted() == "233.15")
    }

    @Test func anUnreadableRowFallsBackToTheFirstLaunchScreenAndIsReplaced() async throws {
        let queue = try DatabaseFactory.inMemory(label: "converter-test")
        let store = try ConverterDatabase(writer: queue).store(for: .firstOwner)
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO converterState(personID, json, savedAt) VALUES (1, '{\"category\":\"colour\"}', ?)", arguments: [Date()])
        }
        #expect(try await store.state() == .firstLaunch)
        _ = try await store.update { state in state.press(.digit(3)) }
        #expect(try await store.state().input.display == "3")
        let json = try await queue.read { db in try String.fetchOne(db, sql: "SELECT json FROM converterState") }
        #expect(json?.contains(#""category":"data""#) == true)
    }

    @Test func concurrentKeyPressesAreAllKept() async throws {
        let store = try ConverterDatabase.inMemory().store(for: .firstOwner)
        // Two phones pressing at once: every press lands, none overwrites another.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<9 {
                group.addTask { _ = try await store.update { state in state.press(.digit(1)) } }
            }
            try await group.waitForAll()
        }
        #expect(try await store.state().input.display == "111111111")
    }
}
