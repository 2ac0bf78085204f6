import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Logging
import PocketCore

/// `pocket setup-link`: the running server's one-time setup link and QR code, for an owner whose
/// Pocket runs as a service (its start-up printout goes to the journal, not to a terminal).
///
/// The setup token lives only in the serving process, so `pocket serve` leaves its printout in
/// the data folder (readable by the service's user alone) while no one is set up; this command
/// shows it if that server still runs and still has no one.
struct SetupLinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup-link",
        abstract: "Print the running Pocket's one-time setup link and QR code (run with sudo for the service).",
        discussion: "Reads the data folder of the Pocket service (/var/lib/pocket), or the one --data-dir or POCKET_DATA_DIR names. Run as root, it reads the folder as the folder's owner."
    )

    /// The file `pocket serve` keeps its setup printout in, inside the data folder.
    static let fileName = "setup-link.txt"

    @Option(name: .customLong("data-dir"), help: ArgumentHelp("The server's data folder (env POCKET_DATA_DIR; default \(ServiceUnit.stateDirectory), the service's).", valueName: "path"))
    var dataDirectory: String?

    func run() async throws {
        let path = Settings.dataDirectory.given(option: dataDirectory, environment: ProcessInfo.processInfo.environment) ?? ServiceUnit.stateDirectory
        let folder = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw CommandFailure(description: "no Pocket data folder at \(folder.path): start the service (sudo systemctl start pocket), or give the server's --data-dir")
        }
        try Self.becomeOwner(of: folder)
        guard FileManager.default.isReadableFile(atPath: folder.path), FileManager.default.isExecutableFile(atPath: folder.path) else {
            throw CommandFailure(description: "cannot read \(folder.path): run it with sudo (the folder belongs to the service's user)")
        }
        // A server holds this lock shared while it runs; taking it exclusively succeeds only when none does.
        if try DataFolderLock.forRestoring(folder) != nil {
            throw CommandFailure(description: "no Pocket is running on \(folder.path): start it (sudo systemctl start pocket, or pocket serve --data-dir \(folder.path)), then ask again")
        }
        let people: PeopleDatabase
        do {
            people = try PeopleDatabase.onDisk(at: folder.appendingPathComponent(PeopleDatabase.fileName))
        } catch {
            throw CommandFailure(description: "cannot open \(folder.appendingPathComponent(PeopleDatabase.fileName).path): \(error)")
        }
        guard try await people.isEmpty() else {
            say("""
                Pocket is already set up: its owner signs in at Pocket's address. To sign a phone in as someone, run as the service's user:
                  sudo -u \(Self.ownerName(of: folder)) pocket pair NAME --data-dir \(folder.path) --host 0.0.0.0
                (add --port and --http-port if /etc/default/pocket changes them).
                """)
            return
        }
        guard let text = try? String(contentsOf: folder.appendingPathComponent(Self.fileName), encoding: .utf8) else {
            throw CommandFailure(description: "the running Pocket has not written its setup link yet: wait until it listens (journalctl -u pocket), then ask again")
        }
        say(text.hasSuffix("\n") ? String(text.dropLast()) : text)
    }

    /// Keeps `text`, the printout with the setup link, for this command; nil removes it (someone
    /// is set up, so no link is valid). Failing to write it costs only this command, so it is logged.
    static func keep(_ text: String?, in dataDirectory: DataDirectory, logger: Logger) {
        let file = dataDirectory.file(fileName)
        let manager = FileManager.default
        guard let text else {
            try? manager.removeItem(at: file)
            return
        }
        let staged = dataDirectory.file(".\(fileName).\(ProcessInfo.processInfo.processIdentifier)")
        guard manager.createFile(atPath: staged.path, contents: Data((text + "\n").utf8), attributes: [.posixPermissions: 0o600]),
              rename(staged.path, file.path) == 0 else {
            try? manager.removeItem(at: staged)
            logger.warning("cannot write \(file.path): pocket setup-link will not find the setup link")
            return
        }
    }

    /// Run by root on a folder another user owns, takes that user's identity for good, so that no
    /// file this command opens or creates (a database's -wal and -shm) ends up owned by root.
    private static func becomeOwner(of folder: URL) throws {
        guard getuid() == 0,
              let attributes = try? FileManager.default.attributesOfItem(atPath: folder.path),
              let uid = (attributes[.ownerAccountID] as? NSNumber)?.uint32Value,
              let gid = (attributes[.groupOwnerAccountID] as? NSNumber)?.uint32Value,
              uid != 0 else { return }
        guard setgroups(0, nil) == 0, setgid(gid) == 0, setuid(uid) == 0 else {
            throw CommandFailure(description: "cannot act as the owner of \(folder.path): \(String(cString: strerror(errno)))")
        }
    }

    /// The name of the user who owns `folder`, for the command it suggests.
    private static func ownerName(of folder: URL) -> String {
        (try? FileManager.default.attributesOfItem(atPath: folder.path))?[.ownerAccountName] as? String ?? "pocket"
    }
}
