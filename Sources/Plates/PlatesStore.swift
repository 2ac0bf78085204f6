import Foundation

/// One person's game. The live implementation is `PlatesGame`, handed out per person by
/// `PlatesDatabase.game(for:)` (SQLite via GRDB); tests use the same types in memory.
public protocol PlatesStore: Sendable {
    /// The current game, its spots and the person's settings (starting a first trip if needed).
    func snapshot() async throws -> GameSnapshot
    /// Marks a state spotted on the current trip; spotting it again changes nothing.
    func spot(_ code: String, at date: Date, location: Location?) async throws -> GameSnapshot
    /// Clears one state on the current trip.
    func unspot(_ code: String) async throws -> GameSnapshot
    /// Clears every state on the current trip.
    func resetGame() async throws -> GameSnapshot
    /// Finishes the current trip (kept in history) and starts a new, empty one.
    func startNewTrip(at date: Date) async throws -> GameSnapshot
    /// Applies a change sent by a phone (or made by a form) by `PlatesMerge`'s rule, at most once
    /// per change id.
    func apply(_ change: PlateChange) async throws -> ChangeOutcome
    /// Every trip of this person with its score, the current one first, then newest first;
    /// finished trips without a plate are left out.
    func trips() async throws -> [TripSummary]
    /// One of this person's trips and its spots, oldest spot first; `PlatesError.unknownTrip`
    /// for an id that does not exist or is someone else's.
    func trip(id: Int64) async throws -> (summary: TripSummary, spots: [Spot])
    /// Remembers whether sounds play.
    func setMuted(_ muted: Bool) async throws -> GameSnapshot
    /// Remembers whether spots record the browser's location.
    func setRecordsLocation(_ records: Bool) async throws -> GameSnapshot
}
