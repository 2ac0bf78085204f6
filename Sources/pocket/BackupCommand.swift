import ArgumentParser
import Conference
import Converter
import Foundation
import Murals
import Plates
import PocketCore
import PocketTLS
import PocketWeb
import Remote

/// `pocket backup`: one archive of everything Pocket cannot fetch again, while a server may run.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Back up the data folder into one archive, also while Pocket serves.",
        discussion: """
            Every database is copied with SQLite's online backup (consistent per database while a server writes), with Pocket's CA \
            (tls/) and small settings, and a manifest of each file's size and SHA-256. The Conference database and the picture caches \
            are left out (they are fetched again), and so is any file Pocket does not write; --include-caches keeps the pictures. Prints the archive's \
            path last; progress only on a terminal.
            """
    )

    @Option(name: .customLong("to"), help: ArgumentHelp("Folder for the archive (env POCKET_BACKUP_DIR; default backups/ in the data folder).", valueName: "folder"))
    var folder: String?

    @Flag(name: .customLong("include-caches"), help: "Also keep the plate and mural pictures, which Pocket can fetch again.")
    var includeCaches = false

    @OptionGroup var data: DataOptions

    func run() async throws {
        var options = PocketConfiguration.Options(data)
        options.backups = true
        options.backupDirectory = folder
        let configuration = try PocketConfiguration.resolve(options: options, environment: ProcessInfo.processInfo.environment)
        let target = configuration.backups?.directory ?? PocketConfiguration.defaultBackupDirectory(in: configuration.dataDirectory)
        try recoverInterruptedRestore(configuration.dataDirectory)
        guard FileManager.default.fileExists(atPath: configuration.dataDirectory.path) else {
            throw BackupError.nothingToBackUp(configuration.dataDirectory.path)
        }
        let terminal = isatty(STDOUT_FILENO) == 1
        let started = Date()
        let made = try await BackupMaker(dataDirectory: configuration.dataDirectory, layout: try pocketDataLayout(), includeCaches: includeCaches).makeOffThread(into: target) { progress in
            guard terminal else { return }
            let line = progress.path.isEmpty ? "Writing the archive…" : "[\(progress.done + 1)/\(progress.total)] \(progress.path)"
            FileHandle.standardOutput.write(Data("\r\u{1B}[2K\(TerminalText.safe(line))".utf8))
        }
        if terminal {
            let seconds = String(format: "%.2f", Date().timeIntervalSince(started))
            FileHandle.standardOutput.write(Data("\r\u{1B}[2K".utf8))
            let count = made.manifest.files.count
            say("Backed up \(count) \(count == 1 ? "file" : "files") into \(made.size) bytes in \(seconds) s.")
            for item in made.manifest.leftOut { say("Left out \(item.path): \(item.reason).") }
        }
        say(made.url.path)
    }
}

/// `pocket restore`: replaces the data folder with a backup's, once the backup proves sound.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore the data folder from a backup archive (stop the server first).",
        discussion: """
            Checks every file's SHA-256 and each of Pocket's databases (known by name) for integrity before touching anything, refuses \
            while a server runs on the folder, when the archive comes from a newer Pocket, holds a file Pocket does not write, or a CA key \
            and certificate that are not a private pair, and migrates one from an older Pocket. Replaces only Pocket's own folder \
            (or an empty one). The folder it replaces is kept aside until the restore has finished; what the archive does not replace \
            (the Conference database, picture caches, earlier backups, files Pocket did not write) is kept, and so are its owner and mode.
            """
    )

    @Argument(help: ArgumentHelp("The backup archive (pocket-backup-….zip).", valueName: "archive"))
    var archive: String

    @OptionGroup var data: DataOptions

    func run() async throws {
        let configuration = try PocketConfiguration.resolve(options: PocketConfiguration.Options(data), environment: ProcessInfo.processInfo.environment)
        let archiveURL = URL(fileURLWithPath: archive).standardizedFileURL
        guard FileManager.default.isReadableFile(atPath: archiveURL.path) else { throw ConfigurationError.unreadableFile(path: archiveURL.path) }
        let restorer = try Self.restorer()
        let target = configuration.dataDirectory
        let report = try await restorer.restore(archiveURL, into: target) { folder in
            try await Self.openStores(in: folder)
            // The archive's record may name an older Conference database than the one installed since (or none).
            try await ConferenceLibrary.keepInstalled(from: target.appendingPathComponent(ConferenceLibrary.folderName), into: folder.appendingPathComponent(ConferenceLibrary.folderName))
        }
        if let recovered = report.recovered { FileHandle.standardError.write(Data("pocket: \(TerminalText.safe(recovered.description))\n".utf8)) }
        let made = report.manifest
        say("Restored \(made.files.count) files from a backup made by Pocket \(made.pocketVersion) at \(ChangeTime.date(made.createdAt).formatted(.iso8601)) into \(configuration.dataDirectory.path).")
        if !report.carriedOver.isEmpty { say("Kept from the folder it replaced: \(report.carriedOver.joined(separator: ", ")).") }
    }

    /// A restorer knowing every file this Pocket writes (`pocketDataLayout`), which takes `tls/`
    /// only as a key and certificate that are a pair, with the keys private.
    static func restorer() throws -> BackupRestorer {
        BackupRestorer(layout: try pocketDataLayout()) { folder in
            TLSFolder(dataDirectory: folder).restoreProblem()
        }
    }

    /// What this Pocket's stores know, by database path in the data folder: the one list of its databases.
    static func knownMigrations() throws -> [String: [String]] {
        [
            PeopleDatabase.fileName: PeopleDatabase.migrationIdentifiers,
            AppDatabaseFile.plates: PlatesDatabase.migrationIdentifiers,
            AppDatabaseFile.converter: ConverterDatabase.migrationIdentifiers,
            AppDatabaseFile.remote: RemoteDatabase.migrationIdentifiers,
            "murals*.sqlite": MuralsDatabase.migrationIdentifiers,
            ConferenceLibrary.statePath: try ConferenceLibrary.stateMigrationIdentifiers(),
        ]
    }

    /// Opens, and so migrates, every store whose file the restored folder has, then lets them go.
    static func openStores(in folder: URL) async throws {
        func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) }
        if exists(PeopleDatabase.fileName) { _ = try PeopleDatabase.onDisk(at: folder.appendingPathComponent(PeopleDatabase.fileName)) }
        if exists(AppDatabaseFile.plates) { _ = try PlatesDatabase.onDisk(at: folder.appendingPathComponent(AppDatabaseFile.plates), catalog: try StateCatalog.bundled()) }
        if exists(AppDatabaseFile.converter) { _ = try ConverterDatabase.onDisk(at: folder.appendingPathComponent(AppDatabaseFile.converter)) }
        if exists(AppDatabaseFile.remote) { _ = try RemoteDatabase.onDisk(at: folder.appendingPathComponent(AppDatabaseFile.remote)) }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasPrefix("murals") && name.hasSuffix(".sqlite") {
            _ = try MuralsDatabase.onDisk(at: folder.appendingPathComponent(name))
        }
        if exists(ConferenceLibrary.statePath) { try ConferenceLibrary.migrateState(inFolder: folder.appendingPathComponent(ConferenceLibrary.folderName)) }
    }
}

/// Every file this Pocket writes in its data folder, for backups and restores: its databases by
/// name (`RestoreCommand.knownMigrations`) and the CA's folder (`TLSFolder.paths`).
func pocketDataLayout() throws -> DataFolderLayout {
    DataFolderLayout(databases: try RestoreCommand.knownMigrations(), files: Set(TLSFolder.paths))
}

/// Opens the data folder for any command: first finishes or rolls back a restore into it that
/// was cut short (saying which in one line on stderr), then makes it if needed and marks it as
/// Pocket's. Every command that opens the folder comes through here, so none ever starts on an
/// empty folder while the household's data sits aside.
func openDataDirectory(_ url: URL) throws -> DataDirectory {
    try recoverInterruptedRestore(url)
    return try DataDirectory(url: url)
}

/// `BackupRestorer.recoverInterrupted`, with its one line on stderr.
func recoverInterruptedRestore(_ url: URL) throws {
    guard !BackupRestorer.interruptedRestores(of: url).isEmpty else { return }
    if let recovery = try RestoreCommand.restorer().recoverInterrupted(url) {
        FileHandle.standardError.write(Data("pocket: \(TerminalText.safe(recovery.description))\n".utf8))
    }
}
