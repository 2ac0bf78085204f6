import Foundation
import PocketCore

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

/// A device as stored: its state, what its display says about the last press, and bookkeeping.
public struct DeviceSnapshot<Device: Hashable & Sendable>: Hashable, Sendable {
    /// The device's state as of `updatedAt`.
    public let device: Device
    /// A line the device's display shows until the next change ("00 is not a channel"), if any.
    public let notice: String?
    /// Goes up by one with every stored change, so a page can tell whether it shows the latest state.
    public let revision: Int64
    /// When the device last changed; the DVR's clock runs from here.
    public let updatedAt: Date

    /// Creates a snapshot.
    public init(device: Device, notice: String?, revision: Int64, updatedAt: Date) {
        self.device = device
        self.notice = notice
        self.revision = revision
        self.updatedAt = updatedAt
    }
}

/// The TV as stored.
public typealias TelevisionSnapshot = DeviceSnapshot<Television>
/// The DVR as stored, as of its last change (use `dvr(at:)` for the present).
public typealias DVRSnapshot = DeviceSnapshot<DVR>

extension DeviceSnapshot where Device == DVR {
    /// The DVR at `date`: playback and recording have run on since the last change.
    public func dvr(at date: Date) -> DVR {
        device.advanced(from: updatedAt, to: date)
    }
}

/// What a press did and the device afterwards.
public struct DeviceChange<Device: Hashable & Sendable, Outcome: Hashable & Sendable>: Hashable, Sendable {
    /// What the press did, as the domain reports it.
    public let outcome: Outcome
    /// The device after the press (unchanged when nothing moved).
    public let snapshot: DeviceSnapshot<Device>
    /// Whether anything was stored, i.e. whether other screens need to hear about it.
    public let isStored: Bool

    /// Creates a change.
    public init(outcome: Outcome, snapshot: DeviceSnapshot<Device>, isStored: Bool) {
        self.outcome = outcome
        self.snapshot = snapshot
        self.isStored = isStored
    }
}

/// A TV press and the set afterwards.
public typealias TelevisionChange = DeviceChange<Television, TVOutcome>
/// A DVR press and the recorder afterwards.
public typealias DVRChange = DeviceChange<DVR, DVRPressOutcome>

/// Where the simulated TV and DVR live. The live implementation is `RemoteDatabase` (SQLite via
/// GRDB); tests use the same type on an in-memory database.
///
/// Every change reads the device, applies the press and writes it back in one transaction, so two
/// phones pressing at once are applied one after the other and neither press is lost.
///
/// The TV and DVR are shared by the household, but a half-typed channel belongs to the phone that
/// typed it: TV reads and presses name the phone (its device id), so 4 on one phone and 7 on
/// another never tune 47.
public protocol RemoteStore: HealthChecked {
    /// The shared TV as the Screen shows it: no phone's half-typed channel.
    func television() async throws -> TelevisionSnapshot
    /// The TV as the phone `deviceID` sees it at `date`: the shared set with that phone's half-typed
    /// channel, if any and not older than `Television.pendingDigitLifetime`.
    func television(deviceID: String, at date: Date) async throws -> TelevisionSnapshot
    /// The DVR as of its last change.
    func dvr() async throws -> DVRSnapshot
    /// Applies TV commands pressed on the phone `deviceID` together: if one throws, none is stored. The
    /// outcome is the last command's (a list is for edits that must land together, such as the four
    /// favourites). The snapshot is that phone's view; `isStored` and the revision say whether the
    /// shared TV changed, so a first digit alone is news to nobody else.
    func apply(_ commands: [TVCommand], deviceID: String, at date: Date) async throws -> TelevisionChange
    /// Switches the DVR on or off; the outcome is `.changed(to: .stopped)` or `.unchanged`.
    func setDVRPower(_ on: Bool, at date: Date) async throws -> DVRChange
    /// Presses a transport button at `date` (the DVR first runs on to then).
    func press(_ button: DVRButton, at date: Date) async throws -> DVRChange
    /// Forces a refused transport button: stops the current operation, then enters the requested state.
    func force(_ button: DVRButton, at date: Date) async throws -> DVRChange
    /// The remote that was open last, so reopening the app lands there.
    func lastRemote() async throws -> RemoteDevice
    /// Remembers the remote that is open now.
    func setLastRemote(_ device: RemoteDevice) async throws
    /// Puts both devices back to their factory state (and the TV remote in front).
    func reset(at date: Date) async throws
}

extension RemoteStore {
    /// The TV as the phone `deviceID` sees it now.
    public func television(deviceID: String) async throws -> TelevisionSnapshot {
        try await television(deviceID: deviceID, at: Date())
    }

    /// Applies one TV command pressed on the phone `deviceID`.
    public func apply(_ command: TVCommand, deviceID: String, at date: Date) async throws -> TelevisionChange {
        try await apply([command], deviceID: deviceID, at: date)
    }
}
