import Crypto
import Foundation

/// Someone who uses this Pocket: the owner or a member of the household.
public struct Person: Hashable, Sendable, Identifiable {
    /// Stable id; all of the person's data is keyed by it.
    public let id: PersonID
    /// The name they sign in with (unique, compared without regard to case).
    public let name: String
    /// Owners install databases and manage people and pairing for others.
    public let isOwner: Bool
    /// When the person was added.
    public let createdAt: Date

    /// Creates a person value.
    public init(id: PersonID, name: String, isOwner: Bool, createdAt: Date) {
        self.id = id
        self.name = name
        self.isOwner = isOwner
        self.createdAt = createdAt
    }
}

/// A browser or phone that is signed in as a person, listed in Settings so it can be signed out.
public struct Device: Hashable, Sendable, Identifiable {
    /// Random id, the value the session cookie's stored session points at.
    public let id: String
    /// Whose device it is.
    public let person: PersonID
    /// A readable name made from the user agent ("Safari on iPhone").
    public let name: String
    /// The token forms from this device must carry; it lives as long as the device is signed in,
    /// so a page opened from the cache after a restart can still post.
    public let csrfToken: String
    /// When it signed in.
    public let firstSeen: Date
    /// When it last made a request (updated at most once a minute).
    public let lastSeen: Date
    /// What the device's pages call it, and what each change in its outbox is bound to: a digest
    /// of `id`, so a page (and anything that reads it) never holds the id a session points at.
    public let tag: String

    /// Creates a device value.
    public init(id: String, person: PersonID, name: String, csrfToken: String, firstSeen: Date, lastSeen: Date) {
        self.id = id
        self.person = person
        self.name = name
        self.csrfToken = csrfToken
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        tag = Self.tag(of: id)
    }

    /// The tag of the device with this id: 22 URL-safe characters (128 bits of SHA-256).
    static func tag(of id: String) -> String {
        Data(SHA256.hash(data: Data("pocket-device:\(id)".utf8)).prefix(16)).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}

/// A pairing code just made: the long code the QR link carries and the short one a person can type.
public struct PairingCode: Hashable, Sendable {
    /// For the QR code's link: 43 random URL-safe characters.
    public let linkCode: String
    /// For typing: 8 letters and digits (no 0/O, 1/I/L), shown as `ABCD-EFGH`.
    public let shortCode: String
    /// Who the phone will be signed in as.
    public let person: PersonID
    /// Five minutes after it was made.
    public let expiresAt: Date

    /// Creates a pairing code value.
    public init(linkCode: String, shortCode: String, person: PersonID, expiresAt: Date) {
        self.linkCode = linkCode
        self.shortCode = shortCode
        self.person = person
        self.expiresAt = expiresAt
    }

    /// The short code as shown, with a hyphen in the middle for reading aloud.
    public var displayedShortCode: String {
        String(shortCode.prefix(4)) + "-" + String(shortCode.dropFirst(4))
    }
}
