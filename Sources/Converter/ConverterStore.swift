/// Where one person's converter screen is remembered between visits. The live implementation is
/// `PersonalConverterStore`, handed out per person by `ConverterDatabase.store(for:)` (SQLite via
/// GRDB); tests use the same types on an in-memory database.
///
/// Each person has their own remembered state, shared by every browser they sign in on.
public protocol ConverterStore: Sendable {
    /// The remembered state, or `ConverterState.firstLaunch` if nothing usable was saved yet.
    func state() async throws -> ConverterState

    /// Applies `change` to the remembered state and saves the result, all in one transaction, so
    /// two phones changing the converter at once never lose each other's change. If `change`
    /// throws, nothing is saved and the error is rethrown.
    /// - Returns: the state after the change and whatever `change` returned (e.g. a key's outcome).
    func update<Result: Sendable>(
        _ change: @escaping @Sendable (inout ConverterState) throws -> Result
    ) async throws -> (state: ConverterState, result: Result)
}
