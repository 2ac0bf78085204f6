import Foundation

/// How far an install has come, published to every page and terminal following it.
public struct InstallProgress: Sendable, Equatable {
    /// The step the installer is on.
    public enum Phase: Sendable, Equatable {
        /// Nothing has run yet.
        case idle
        /// Fetching and checking the manifest.
        case checkingManifest
        /// Streaming the file to disk.
        case downloading
        /// Checking a file's size and MD5.
        case verifying
        /// Unpacking the database from the zip.
        case extracting
        /// Opening the database, `PRAGMA quick_check`, looking for the expected tables.
        case checkingDatabase
        /// Moving it into place and rebuilding the search index.
        case installing
        /// Finished: installed, or already up to date.
        case done
        /// Stopped; the message says why. The previous database is still in use.
        case failed(String)

        /// Words for a status line.
        public var title: String {
            switch self {
            case .idle: return "Idle"
            case .checkingManifest: return "Checking for a new database"
            case .downloading: return "Downloading"
            case .verifying: return "Verifying"
            case .extracting: return "Extracting"
            case .checkingDatabase: return "Checking the database"
            case .installing: return "Installing"
            case .done: return "Done"
            case .failed: return "Failed"
            }
        }

        /// Whether the install has stopped, either way.
        public var isFinished: Bool {
            switch self {
            case .done, .failed: return true
            default: return false
            }
        }
    }

    /// The current step.
    public var phase: Phase
    /// Bytes downloaded (or extracted, or copied) so far in this step.
    public var bytesDone: Int64
    /// Bytes this step handles in all, when known.
    public var totalBytes: Int64?
    /// Recent speed, when measurable.
    public var bytesPerSecond: Double?
    /// Estimated time left in this step, when measurable.
    public var secondsRemaining: Double?
    /// The version being installed, once the manifest has been read.
    public var version: String?
    /// For `done`: what happened ("Installed version 53", "Version 53 is already installed").
    public var message: String?

    /// Creates a progress value.
    public init(phase: Phase, bytesDone: Int64 = 0, totalBytes: Int64? = nil, bytesPerSecond: Double? = nil,
                secondsRemaining: Double? = nil, version: String? = nil, message: String? = nil) {
        self.phase = phase
        self.bytesDone = bytesDone
        self.totalBytes = totalBytes
        self.bytesPerSecond = bytesPerSecond
        self.secondsRemaining = secondsRemaining
        self.version = version
        self.message = message
    }

    /// Nothing running.
    public static let idle = InstallProgress(phase: .idle)

    /// Share of this step done, from 0 to 1, when the total is known.
    public var fraction: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return min(1, max(0, Double(bytesDone) / Double(totalBytes)))
    }
}

/// Measures speed over the last few seconds, so the estimate follows changes without jumping.
struct TransferRateMeter: Sendable {
    private var samples: [(time: ContinuousClock.Instant, bytes: Int64)] = []
    private let window: Duration

    init(window: Duration = .seconds(3)) {
        self.window = window
    }

    /// Records that `bytes` were done at `time`; returns bytes per second over the window.
    mutating func record(_ bytes: Int64, at time: ContinuousClock.Instant) -> Double? {
        samples.append((time, bytes))
        while let first = samples.first, time - first.time > window, samples.count > 2 {
            samples.removeFirst()
        }
        guard let first = samples.first, bytes >= first.bytes else { return nil }
        let elapsed = time - first.time
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        guard seconds >= 0.2 else { return nil }
        return Double(bytes - first.bytes) / seconds
    }
}
