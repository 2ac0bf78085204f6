import Foundation

extension Television {
    /// Tapping a preset button; the index is zero-based, in the order `favourites` lists them.
    @discardableResult
    public mutating func tuneFavourite(at index: Int) throws(RemoteError) -> TVOutcome {
        guard isOn else { return .refusedPowerOff }
        guard favourites.indices.contains(index) else { throw .noSuchFavourite(index) }
        let channel = favourites[index].channel
        return performNonKeypadAction { $0.channel = channel }
    }

    /// Saves an edited preset straight from form input; an invalid label or channel throws and saves nothing.
    @discardableResult
    public mutating func editFavourite(at index: Int, label: String, channel: Int) throws(RemoteError) -> TVOutcome {
        guard isOn else { return .refusedPowerOff }
        guard favourites.indices.contains(index) else { throw .noSuchFavourite(index) }
        let favourite = try Favourite(label: label, channel: channel)
        return performNonKeypadAction { $0.favourites[index] = favourite }
    }
}
