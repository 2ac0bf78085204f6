import Foundation

/// The two simulated devices the remotes control.
public enum RemoteDevice: String, CaseIterable, Codable, Sendable {
    /// "My TV".
    case tv
    /// "My DVR".
    case dvr

    /// The device's name, as its remote's title shows it.
    public var name: String {
        switch self {
        case .tv: "My TV"
        case .dvr: "My DVR"
        }
    }

    /// The other remote, for the toolbar button that switches between them.
    public var other: RemoteDevice {
        switch self {
        case .tv: .dvr
        case .dvr: .tv
        }
    }
}
