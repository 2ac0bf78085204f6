import Foundation

/// A talk's text as Pocket stored it: the markup its source sent, shown only inside a sandboxed frame.
public struct TalkText: Sendable, Equatable {
    /// The talk it belongs to.
    public let talkID: Int
    /// The markup as fetched (decoded as UTF-8); never trusted, never put into Pocket's own pages.
    public let html: String
    /// Its size in bytes, as stored.
    public let size: Int
    /// Where it was fetched from.
    public let source: URL
    /// When it was fetched.
    public let fetchedAt: Date

    /// Creates a stored text.
    public init(talkID: Int, html: String, size: Int, source: URL, fetchedAt: Date) {
        self.talkID = talkID
        self.html = html
        self.size = size
        self.source = source
        self.fetchedAt = fetchedAt
    }
}
