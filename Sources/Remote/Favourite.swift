import Foundation

/// A one-tap preset; labels are network call signs, so they are short, letters only and shown in capitals.
public struct Favourite: Hashable, Sendable {
    /// The longest label that still fits on a preset button.
    public static let maximumLabelLength = 4

    /// The call sign on the button, already trimmed and uppercased so comparisons need no care.
    public let label: String
    /// Where tapping the button tunes.
    public let channel: Channel

    /// Validates form input, so a bad edit is refused before anything is saved.
    public init(label: String, channel: Int) throws(RemoteError) {
        self.label = try Self.validatedLabel(label)
        self.channel = try Channel(channel)
    }

    /// Takes a channel that is already known to be valid, for presets built in code.
    public init(label: String, channel: Channel) throws(RemoteError) {
        self.label = try Self.validatedLabel(label)
        self.channel = channel
    }

    /// Skips validation for the built-in presets, whose labels are literals checked by the tests.
    private init(builtIn label: String, channel: Int) {
        self.label = label
        self.channel = Channel(wrapping: channel)
    }

    /// The Los Angeles over-the-air line-up, a familiar and realistic starting point.
    public static let defaults: [Favourite] = [
        Favourite(builtIn: "ABC", channel: 7),
        Favourite(builtIn: "CBS", channel: 2),
        Favourite(builtIn: "FOX", channel: 11),
        Favourite(builtIn: "NBC", channel: 4),
    ]

    /// Forgives surrounding whitespace and lowercase, but nothing else: digits, symbols, inner spaces and
    /// accented letters are refused because the spec asks for letters and call signs are plain A–Z.
    public static func validatedLabel(_ typed: String) throws(RemoteError) -> String {
        let trimmed = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        let scalars = trimmed.unicodeScalars
        let isPlainLetters = scalars.allSatisfy { ("A"..."Z").contains($0) || ("a"..."z").contains($0) }
        guard isPlainLetters, (1...maximumLabelLength).contains(scalars.count) else {
            throw .invalidLabel(typed)
        }
        return trimmed.uppercased()
    }
}

extension Favourite: Codable {
    private enum CodingKeys: String, CodingKey {
        case label, channel
    }

    /// Re-validates stored presets, so a hand-edited database cannot put a bad label on a button.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let typed = try container.decode(String.self, forKey: .label)
        do throws(RemoteError) {
            label = try Self.validatedLabel(typed)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .label, in: container, debugDescription: error.description)
        }
        channel = try container.decode(Channel.self, forKey: .channel)
    }
}
