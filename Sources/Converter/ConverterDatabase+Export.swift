import Foundation
import PocketCore

/// One person's converter screen as it leaves or enters Pocket: the remembered state and when
/// it was last changed.
public struct ConverterExport: Codable, Sendable, Equatable {
    /// When the state was saved, milliseconds since 1970.
    public var savedAt: Int64
    /// The screen: category, units, value, convention (the converter's own JSON).
    public var state: ConverterState
}

extension PersonalConverterStore {
    /// The person's remembered screen; nil if they never used the converter.
    public func exported() async throws -> ConverterExport? {
        guard let savedAt = try await savedAt() else { return nil }
        return ConverterExport(savedAt: savedAt, state: try await state())
    }

    /// Sets the person's screen to the export's, unless their screen here changed later (the
    /// latest change wins, as between two phones).
    public func importData(_ data: ConverterExport) async throws {
        guard (0...253_402_300_800_000).contains(data.savedAt) else {
            throw ConverterError.invalidImport("its time must be milliseconds since 1970, before the year 10000")
        }
        _ = try await replace(with: data.state, changedAt: data.savedAt)
    }
}
