import Foundation

/// Input a remote refuses; each message is written for an alert, so the web layer can show it as is.
public enum RemoteError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// A favourite's label is empty, too long or not made of letters A–Z (carries the text as typed).
    case invalidLabel(String)
    /// A channel outside 1...99 was asked for.
    case channelOutOfRange(Int)
    /// The volume slider sent a level outside 0...100.
    case volumeOutOfRange(Int)
    /// A keypad press that is not a single digit.
    case invalidDigit(Int)
    /// A favourite slot that does not exist (carries the zero-based index asked for).
    case noSuchFavourite(Int)

    /// One sentence a user can act on; no trailing period, like the rest of Pocket's messages.
    public var description: String {
        switch self {
        case .invalidLabel:
            return "Label must be 1 to \(Favourite.maximumLabelLength) letters"
        case .channelOutOfRange:
            return "Channel must be from \(Channel.range.lowerBound) to \(Channel.range.upperBound)"
        case .volumeOutOfRange:
            return "Volume must be from \(Television.volumeRange.lowerBound) to \(Television.volumeRange.upperBound)"
        case .invalidDigit:
            return "Keypad digits go from 0 to 9"
        case .noSuchFavourite:
            return "There are only \(Television.favouriteCount) favourites"
        }
    }

    /// Lets `localizedDescription` show the same human message on every platform.
    public var errorDescription: String? { description }
}
