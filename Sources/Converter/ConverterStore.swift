/// Where the converter's screen is remembered between visits. The live implementation is
/// `ConverterDatabase` (SQLite via GRDB); tests use the same type on an in-memory database.
///
/// Pocket serves one household, so there is one remembered state, shared by every browser.
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
