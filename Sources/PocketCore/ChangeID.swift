/// The id a phone gives each change it queues, which makes a change sent twice apply once: the one
/// rule the outbox's envelope and every app's change are checked against.
public enum ChangeID {
    /// The longest id kept (a UUID is 36 characters).
    public static let maxLength = 100
    /// What is wrong with an id that `isValid` refuses, as a change's error says it.
    public static let rule = "its id must be 1 to \(maxLength) printable ASCII characters"

    /// Whether `id` is 1 to `maxLength` printable ASCII characters: no spaces or control
    /// characters, so an id is stored, logged and compared as it was sent.
    public static func isValid(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= maxLength && id.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }
}
