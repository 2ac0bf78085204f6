import ArgumentParser
import Conference
import Foundation
import Logging
import PocketCore

/// `pocket conference …`: the Scripture Citation Index database from the command line.
struct ConferenceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conference",
        abstract: "The Conference app's Scripture Citation Index database: status, update, import.",
        discussion: """
            Pocket starts with built-in sample data (the April and October 2025 conferences) and uses it \
            until a full database is installed with `update` (from the manifest) or `import` (from a file).
            """,
        subcommands: [Status.self, Update.self, Import.self, Search.self, ExportSample.self, GenerateSynthetic.self]
    )
}

extension ConferenceCommand {
    /// `pocket conference status`
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Show which database is in use (installed version or sample data) and its counts.")

        @OptionGroup var data: DataOptions

        func run() async throws {
            let library = try await openLibrary(data)
            let status = try await conferenceFailure { try await library.status() }
            for line in Self.lines(status) { say(line) }
        }

        static func lines(_ status: DatabaseStatus) -> [String] {
            var lines: [String] = []
            switch status.source {
            case .sample:
                lines.append("Database: \(SampleDatabase.label), built in; install a full one with `pocket conference update`")
            case .installed(let record):
                let how = record.origin == .download ? "downloaded" : "imported"
                let when = ISO8601DateFormatter.string(from: record.installedAt, timeZone: .current, formatOptions: [.withFullDate, .withSpaceBetweenDateAndTime, .withTime, .withColonSeparatorInTime])
                lines.append(record.origin == .download
                    ? "Database: version \(record.version) (\(record.contentName), \(how) \(when))"
                    : "Database: \(record.contentName) (\(how) \(when), MD5 \(record.contentMD5))")
            }
            lines.append("Last updated: \(status.footer.lastUpdated ?? "unknown")")
            lines.append("Conferences: \(status.counts.conferences)")
            lines.append("Sessions: \(status.counts.sessions)")
            lines.append("Talks: \(status.counts.talks)")
            lines.append("Speakers: \(status.counts.speakers)")
            lines.append("Citations: \(status.capabilities.citations ? String(status.counts.citations) : "none (this database has no citation index)")")
            let media: String
            switch status.capabilities.media {
            case .streams: media = "audio and video (AudioUrl, VideoLowUrl, VideoMedUrl, VideoHighUrl)"
            case .listenWatch: media = "listen and watch (ListenURL, WatchURL)"
            case .none: media = "none"
            }
            lines.append("Media links: \(media)")
            if let warning = status.warning { lines.append("Warning: \(warning)") }
            return lines
        }
    }

    /// `pocket conference update`
    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "update",
            abstract: "Download and install the current database named by the manifest (skipped when it is installed already).",
            discussion: "Shows a progress bar on a terminal and plain lines otherwise. Ctrl-C cancels; the previous database stays in use."
        )

        @OptionGroup var data: DataOptions

        @Option(name: .setting(Settings.sciManifest), help: ArgumentHelp(Settings.sciManifest))
        var manifestURL: String?

        @Flag(help: "Download the database itself instead of the zip.")
        var uncompressed = false

        func run() async throws {
            let url = try resolvedManifestURL()
            let library = try await openLibrary(data, sample: .whenNeeded)
            let installer = DatabaseInstaller(library: library)
            let display = ProgressDisplay(isTerminal: isatty(STDOUT_FILENO) == 1)
            let stream = await installer.progress.subscribe()
            let follower = Task { for await value in stream { display.show(value) } }
            let interrupt = cancelOnInterrupt(installer)
            defer { interrupt.cancel() }
            let outcome: InstallOutcome
            do {
                outcome = try await installer.update(manifestURL: url, mode: uncompressed ? .uncompressed : .zip)
            } catch {
                await installer.progress.finishAll()
                await follower.value
                display.finish()
                throw CommandFailure(description: error.description)
            }
            await installer.progress.finishAll()
            await follower.value
            display.finish()
            switch outcome {
            case .alreadyInstalled(let record): say("Version \(record.version) is already installed.")
            case .installed(let record): say("Installed version \(record.version) (\(record.contentName)).")
            }
        }

        private func resolvedManifestURL() throws -> URL {
            ManifestLocation.url(configured: try PocketConfiguration.sciManifest(option: manifestURL, environment: ProcessInfo.processInfo.environment))
        }
    }

    /// `pocket conference import FILE.db`
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "import", abstract: "Install a sci-core database file (it is checked first, and copied, not moved).")

        @OptionGroup var data: DataOptions

        @Argument(help: ArgumentHelp("The database file, e.g. core.53.db.", valueName: "file"))
        var file: String

        func run() async throws {
            let library = try await openLibrary(data, sample: .whenNeeded)
            let installer = DatabaseInstaller(library: library)
            let url = URL(fileURLWithPath: file)
            let outcome = try await conferenceFailure { try await installer.importDatabase(at: url) }
            say("Imported \(outcome.database.contentName) (MD5 \(outcome.database.contentMD5)).")
        }
    }

    /// `pocket conference search WORDS`
    struct Search: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "search", abstract: "Find talks by title or speaker (word beginnings, accents ignored).")

        @OptionGroup var data: DataOptions

        @Option(help: ArgumentHelp("Most results to show (default 20).", valueName: "n"))
        var limit = 20

        @Argument(help: ArgumentHelp("Words to look for.", valueName: "words"))
        var words: [String]

        func run() async throws {
            let library = try await openLibrary(data)
            let text = words.joined(separator: " ")
            let hits = try await conferenceFailure { try await library.search(text, limit: max(1, limit)) }
            for hit in hits {
                let conference = hit.conference.map { " (\($0))" } ?? ""
                say("\(hit.id)\t\(hit.title) — \(hit.speaker)\(conference)")
            }
        }
    }

    /// `pocket conference export-sample OUT.db`
    struct ExportSample: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export-sample",
            abstract: "Write Pocket's built-in sample database (real schema) to a file."
        )

        @Argument(help: ArgumentHelp("Where to write it; must not exist yet.", valueName: "file"))
        var file: String

        func run() throws {
            let url = URL(fileURLWithPath: file)
            try writeNew(url) { try SampleDatabase.build(at: $0) }
            say("Wrote the sample database to \(url.path).")
        }
    }

    /// `pocket conference generate-synthetic OUT.db [--scale N]`
    struct GenerateSynthetic: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "generate-synthetic",
            abstract: "Write a full-size synthetic database (about 150 conferences, 10,000 talks, 130,000 citations) for benchmarks.",
            discussion: """
                --scale N adds N − 1 times as much older history (conferences, talks by speakers of its own, \
                citations) behind the same rows, so each screen opens on what it shows at 1× while the database grows.
                """
        )

        @Argument(help: ArgumentHelp("Where to write it; must not exist yet.", valueName: "file"))
        var file: String

        @Option(help: ArgumentHelp("Seed of the generator; the same seed gives the same database (default 1).", valueName: "n"))
        var seed: UInt64 = 1

        @Option(help: ArgumentHelp("Times the full size, 1 to \(SyntheticDatabase.maximumScale) (default 1).", valueName: "n"))
        var scale = 1

        func validate() throws {
            guard (1...SyntheticDatabase.maximumScale).contains(scale) else {
                throw ValidationError("--scale must be 1 to \(SyntheticDatabase.maximumScale)")
            }
        }

        func run() throws {
            let url = URL(fileURLWithPath: file)
            let seed = seed, scale = scale
            try writeNew(url) { try SyntheticDatabase.build(at: $0, seed: seed, scale: scale) }
            say("Wrote a synthetic database\(scale > 1 ? " (\(scale)× the full size)" : "") to \(url.path).")
        }
    }
}

// MARK: - Helpers

/// Opens the Conference library in the data directory chosen by --data-dir / POCKET_DATA_DIR;
/// commands that install a database leave the sample until something asks for it.
private func openLibrary(_ data: DataOptions, sample: ConferenceLibrary.SampleLoading = .atOnce) async throws -> ConferenceLibrary {
    let configuration = try PocketConfiguration.resolve(options: .init(data), environment: ProcessInfo.processInfo.environment)
    let directory = try openDataDirectory(configuration.dataDirectory)
    return try await conferenceFailure { try await ConferenceLibrary.open(dataDirectory: directory, sample: sample) }
}

/// Runs `body`, turning its failure into one `pocket: …` line.
private func conferenceFailure<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as ConfigurationError {
        throw error
    } catch let error as ConferenceError {
        // The person gets one line; the whole report is there with --log-level debug.
        if let detail = error.logDetail { Logger(label: "pocket.conference").debug("\(detail)") }
        throw CommandFailure(description: error.description)
    } catch {
        throw CommandFailure(description: "the Conference database could not be used: \(error)")
    }
}

/// Writes a new file through a temporary name beside it, so a failure leaves nothing half-written.
private func writeNew(_ url: URL, _ build: (URL) throws -> Void) throws {
    guard !FileManager.default.fileExists(atPath: url.path) else {
        throw CommandFailure(description: "\(url.path) already exists; choose another name")
    }
    let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
    defer { try? FileManager.default.removeItem(at: temporary) }
    do {
        try build(temporary)
        try FileManager.default.moveItem(at: temporary, to: url)
    } catch let error as ConferenceError {
        throw CommandFailure(description: error.description)
    } catch {
        throw CommandFailure(description: "cannot write \(url.path): \(error.localizedDescription)")
    }
}

/// Cancels the install on Ctrl-C, so its temporary files are removed and the old database stays.
private func cancelOnInterrupt(_ installer: DatabaseInstaller) -> any DispatchSourceSignal {
    signal(SIGINT, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    source.setEventHandler { Task { await installer.cancel() } }
    source.resume()
    return source
}

/// Follows install progress: a bar redrawn in place on a terminal, plain lines otherwise.
private final class ProgressDisplay: @unchecked Sendable {
    private let isTerminal: Bool
    private let lock = NSLock()
    private var phase: InstallProgress.Phase?
    private var lastQuarter = -1
    private var barShown = false

    init(isTerminal: Bool) {
        self.isTerminal = isTerminal
    }

    func show(_ progress: InstallProgress) {
        lock.withLock {
            let changed = progress.phase != phase
            phase = progress.phase
            if progress.phase.isFinished { return }
            let isTransfer = progress.totalBytes != nil && [.downloading, .extracting, .verifying].contains(progress.phase)
            if isTerminal {
                if isTransfer {
                    write("\r\u{1B}[2K" + Self.bar(progress))
                    barShown = true
                } else if changed {
                    endBar()
                    write(progress.phase.title + "…\n")
                }
            } else {
                if changed {
                    lastQuarter = -1
                    let size = isTransfer ? " (\(Self.bytes(progress.totalBytes ?? 0)))" : ""
                    write(progress.phase.title + size + "…\n")
                }
                if isTransfer, let fraction = progress.fraction {
                    let quarter = Int(fraction * 4)
                    if quarter > lastQuarter, quarter > 0 {
                        lastQuarter = quarter
                        write("\(progress.phase.title): \(quarter * 25)% (\(Self.bytes(progress.bytesDone)) of \(Self.bytes(progress.totalBytes ?? 0)))\n")
                    }
                }
            }
        }
    }

    func finish() {
        lock.withLock { endBar() }
    }

    private func endBar() {
        if barShown {
            write("\n")
            barShown = false
        }
    }

    private func write(_ text: String) {
        // Unbuffered, so the bar moves as it is drawn; the command's other output is written
        // only after the display has finished.
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// "Downloading  [██████░░░░░░░░░░░░░░]  30%  3.7 MB of 12.3 MB  2.1 MB/s  4 s left"
    static func bar(_ progress: InstallProgress) -> String {
        let fraction = progress.fraction ?? 0
        let width = 24
        let filled = Int((fraction * Double(width)).rounded(.down))
        var line = progress.phase.title.padding(toLength: 12, withPad: " ", startingAt: 0)
        line += " [" + String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled) + "] "
        line += String(format: "%3d%%", Int(fraction * 100))
        line += "  \(bytes(progress.bytesDone)) of \(bytes(progress.totalBytes ?? 0))"
        if let rate = progress.bytesPerSecond { line += "  \(bytes(Int64(rate)))/s" }
        if let left = progress.secondsRemaining, left.isFinite { line += "  \(Int(left.rounded(.up))) s left" }
        return line
    }

    /// "812 bytes", "12.3 KB", "45.9 MB" (decimal units).
    static func bytes(_ count: Int64) -> String {
        if count < 1000 { return "\(count) bytes" }
        if count < 1_000_000 { return String(format: "%.1f KB", Double(count) / 1e3) }
        if count < 1_000_000_000 { return String(format: "%.1f MB", Double(count) / 1e6) }
        return String(format: "%.2f GB", Double(count) / 1e9)
    }
}
