import Foundation

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
