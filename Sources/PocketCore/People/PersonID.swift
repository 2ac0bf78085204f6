/// Who a piece of per-person data belongs to: a person's row id in `people.sqlite`.
///
/// Ids are never reused (the people table is `AUTOINCREMENT`), so data left behind by a removed
/// person can never surface for someone added later.
public struct PersonID: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The row id.
    public let rawValue: Int64

    /// Wraps a row id.
    public init(rawValue: Int64) {
        self.rawValue = rawValue
    }

    /// The first person, always the owner. Upgrading a single-user Pocket gives all of its data
    /// to this person, because the first person set up on any data folder gets id 1.
    public static let firstOwner = PersonID(rawValue: 1)

    public var description: String { "person \(rawValue)" }
}
