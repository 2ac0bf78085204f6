import Conference
import Foundation

/// "Settings": which database is in use, where updates come from, the update itself and the import form.
struct ConferenceSettings: Sendable {
    /// A fact about the database in use, with the id tests and scripts find it by.
    struct Line: Sendable {
        let label: String
        let value: String
        let id: String
    }

    /// The install button's words: what it installs ("Download Version 53") and its size beside it.
    struct OfferButton: Sendable {
        let title: String
        let detail: String
    }

    let shell: ConferenceShell
    let lines: [Line]
    let manifestURL: String
    let checkStatus: String
    let checkProblem: String?
    /// The download the manifest offers, as its button says it, when there is one.
    let offer: OfferButton?
    /// Whether a new check or install may start: not while one is running.
    let canCheck: Bool
    let importAction: String
    let events: String
    let panel: InstallPanel
    let uploadLimit: String
    /// A problem with the request itself (an upload refused), shown above the import form.
    let requestProblem: String?
    /// Whether the check, install and import controls are shown: only owners may change the database.
    /// Others see `ownerOnly` instead.
    let canInstall: Bool

    /// What a person who is not an owner sees instead of the controls.
    static let ownerOnly = "Only an owner can install or import a database."

    init(shell: ConferenceShell, status: DatabaseStatus, updates: ConferenceUpdates.Snapshot, csrfToken: String, isOwner: Bool,
         requestProblem: String? = nil) {
        self.shell = shell
        canInstall = isOwner
        var lines = [Line(label: "Database", value: status.footer.label, id: "conference-db-label")]
        if case .installed(let record) = status.source {
            lines.append(Line(label: record.origin == .download ? "Downloaded" : "Imported", value: Self.timestamp(record.installedAt), id: "conference-db-installed"))
        }
        lines.append(Line(label: "Last updated", value: status.footer.lastUpdated ?? "unknown", id: "conference-db-updated"))
        lines.append(Line(label: "Conferences", value: String(status.counts.conferences), id: "conference-db-conferences"))
        lines.append(Line(label: "Talks", value: String(status.counts.talks), id: "conference-db-talks"))
        lines.append(Line(label: "Speakers", value: String(status.counts.speakers), id: "conference-db-speakers"))
        lines.append(Line(label: "Citations", value: status.capabilities.citations ? String(status.counts.citations) : "none", id: "conference-db-citations"))
        if let warning = status.warning { lines.append(Line(label: "Warning", value: warning, id: "conference-db-warning")) }
        self.lines = lines

        manifestURL = updates.manifestURL.absoluteString
        checkProblem = updates.checkProblem
        if let manifest = updates.manifest, updates.checkProblem == nil {
            checkStatus = updates.offer == nil ? "Version \(manifest.version) is installed and up to date." : "Version \(manifest.version) is available."
        } else if updates.isChecking {
            checkStatus = "Asking the manifest’s server now…"
        } else if updates.checkProblem != nil {
            checkStatus = "The last check did not reach the manifest."
        } else {
            checkStatus = "Not checked yet."
        }
        offer = updates.offer.map { offer in
            OfferButton(title: status.source.isSample ? "Download the Full Database" : "Download Version \(offer.version)",
                        detail: "Version \(offer.version), \(ConferenceFormat.bytes(offer.downloadSize))")
        }
        canCheck = updates.job == nil
        importAction = ConferenceRoute.importDatabase.href() + "?\(CSRFMiddleware.fieldName)=\(ConferenceRoute.queryValue(csrfToken))"
        events = ConferenceRoute.events.href() + "?since=\(updates.revision)"
        panel = InstallPanel(job: updates.job, progress: updates.progress, outcome: updates.outcome)
        uploadLimit = ConferenceFormat.bytes(ConferenceUpdates.uploadLimit)
        self.requestProblem = requestProblem
    }

    private static func timestamp(_ date: Date) -> String {
        ISO8601DateFormatter.string(from: date, timeZone: .current,
                                    formatOptions: [.withFullDate, .withSpaceBetweenDateAndTime, .withTime, .withColonSeparatorInTime])
    }
}

/// The install's live panel (`#conference-install`): the determinate progress bar with bytes of total,
/// speed and time left while an install runs, else how the last one ended. Server-Sent Events replace it.
struct InstallPanel: Sendable {
    /// How far a download (or its check and unpacking) has got, when its size is known.
    struct Transfer: Sendable {
        let value: Int64
        let max: Int64
        let percent: Int
        /// "3.7 MB of 12.3 MB".
        let bytes: String
        let speed: String?
        let remaining: String?
    }

    let running: Bool
    let heading: String
    let phase: String
    /// The determinate progress, or nil while the install cannot say how far it is.
    let transfer: Transfer?
    let success: String?
    let failure: String?

    init(job: ConferenceUpdates.Job?, progress: InstallProgress, outcome: ConferenceUpdates.Outcome?) {
        running = job != nil && !progress.phase.isFinished
        switch job {
        case .download?: heading = progress.version.map { "Installing version \($0)" } ?? "Installing the database"
        case .importing(let name)?: heading = "Importing \(name)"
        case nil: heading = ""
        }
        phase = progress.phase.title
        let isTransfer = [.downloading, .verifying, .extracting].contains(progress.phase)
        if running, isTransfer, let total = progress.totalBytes, total > 0 {
            let value = Swift.min(progress.bytesDone, total)
            transfer = Transfer(value: value, max: total, percent: Int((progress.fraction ?? 0) * 100),
                                bytes: "\(ConferenceFormat.bytes(value)) of \(ConferenceFormat.bytes(total))",
                                speed: progress.bytesPerSecond.map { "\(ConferenceFormat.bytes(Int64($0)))/s" },
                                remaining: progress.secondsRemaining.flatMap(ConferenceFormat.remaining))
        } else {
            transfer = nil
        }
        switch (running, outcome) {
        case (false, .succeeded(let message)?): success = message; failure = nil
        case (false, .failed(let message)?): success = nil; failure = Self.failureText(message)
        default: success = nil; failure = nil
        }
    }

    /// The failure, ending with the reassurance that nothing was lost (unless it says so already).
    static func failureText(_ message: String) -> String {
        if message.contains("still in use") { return message }
        let sentence = message.hasSuffix(".") ? String(message.dropLast()) : message
        return sentence + ". The previous database is still in use."
    }
}
