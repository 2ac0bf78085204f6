import ArgumentParser
import Foundation
import PocketCore
import PocketWeb

/// `pocket users …`: the people who may sign in to this Pocket.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Add, list and remove the people who use this Pocket, and set their passwords.",
        discussion: "Passwords are read from standard input (asked twice, without echo, on a terminal), never from an argument.",
        subcommands: [Add.self, List.self, Remove.self, Passwd.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a person (the first person is always an owner).")
        @Argument(help: "The name they sign in with.") var name: String
        @Flag(help: "Make them an owner: owners install databases and manage people.") var owner = false
        @OptionGroup var data: DataOptions

        func run() async throws {
            let store = try openPeople(data)
            let password = try readPassword(confirm: true)
            let person = try await peopleCall { try await store.addPerson(name: name, password: password, isOwner: owner) }
            print("Added \(TerminalText.safe(person.name))\(person.isOwner ? " (owner)" : "").")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List everyone, owners first, with their signed-in devices.")
        @OptionGroup var data: DataOptions

        func run() async throws {
            let store = try openPeople(data)
            let people = try await store.people()
            if people.isEmpty { print("No one yet: add the owner with `pocket users add NAME`, or open the setup link `pocket serve` prints.") }
            for person in people {
                let devices = try await store.devices(of: person.id, limit: 0).total
                print("\(TerminalText.safe(person.name))\t\(person.isOwner ? "owner" : "member")\t\(devices) device\(devices == 1 ? "" : "s")")
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a person and sign out their devices.")
        @Argument(help: "Their name.") var name: String
        @OptionGroup var data: DataOptions

        func run() async throws {
            let store = try openPeople(data)
            let person = try await peopleCall { try await store.removePerson(named: name) }
            try await PersonalDataStores.forget(person.id, in: try openDataDirectory(data))
            print("Removed \(TerminalText.safe(name)) and their data.")
        }
    }

    struct Passwd: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "passwd", abstract: "Set a person's password (signs out their devices).")
        @Argument(help: "Their name.") var name: String
        @OptionGroup var data: DataOptions

        func run() async throws {
            let store = try openPeople(data)
            guard try await store.person(named: name) != nil else { throw CommandFailure(description: PeopleError.unknownPerson(TerminalText.safe(name)).description) }
            let password = try readPassword(confirm: true)
            try await peopleCall { try await store.setPassword(named: name, to: password) }
            print("Password changed for \(TerminalText.safe(name)); their devices are signed out.")
        }
    }
}

/// Opens `people.sqlite` in the data directory the options name; with `mustExist`, refuses (making
/// nothing) when the folder has none, since a command that only reads people would otherwise leave
/// an empty folder where the person meant another.
func openPeople(_ data: DataOptions, mustExist: Bool = false) throws -> PeopleDatabase {
    let configuration = try PocketConfiguration.resolve(options: .init(data), environment: ProcessInfo.processInfo.environment)
    let file = configuration.dataDirectory.appendingPathComponent(PeopleDatabase.fileName)
    if mustExist, !FileManager.default.fileExists(atPath: file.path) {
        throw CommandFailure(description: "no one is set up in \(TerminalText.safe(configuration.dataDirectory.path)) (it has no people.sqlite): give the server's --data-dir, or start `pocket serve` and set up the owner first")
    }
    let directory = try openDataDirectory(configuration.dataDirectory)
    do {
        return try PeopleDatabase.onDisk(at: directory.file(PeopleDatabase.fileName))
    } catch {
        throw CommandFailure(description: "cannot open \(directory.file(PeopleDatabase.fileName).path): \(error)")
    }
}

/// The data directory the options name (a person's app data is there beside `people.sqlite`).
func openDataDirectory(_ data: DataOptions) throws -> DataDirectory {
    try openDataDirectory(try PocketConfiguration.resolve(options: .init(data), environment: ProcessInfo.processInfo.environment).dataDirectory)
}

/// Runs a people-store call, turning its errors into one-line command failures.
func peopleCall<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as PeopleError {
        throw CommandFailure(description: TerminalText.safe(error.description))
    }
}

/// A password from standard input: asked twice without echo on a terminal, else the first line.
func readPassword(confirm: Bool) throws -> String {
    if isatty(STDIN_FILENO) == 1 {
        let first = try promptHidden("Password: ")
        if confirm, try promptHidden("Password again: ") != first {
            throw CommandFailure(description: "the two passwords are not the same")
        }
        return first
    }
    guard let line = readLine(strippingNewline: true) else {
        throw CommandFailure(description: "no password on standard input: pipe it in, e.g. printf '%s\\n' \"$PASSWORD\" | pocket users add NAME")
    }
    return line
}

private func promptHidden(_ prompt: String) throws -> String {
    FileHandle.standardError.write(Data(prompt.utf8))
    var settings = termios()
    tcgetattr(STDIN_FILENO, &settings)
    var hidden = settings
    hidden.c_lflag &= ~tcflag_t(ECHO)
    tcsetattr(STDIN_FILENO, TCSANOW, &hidden)
    defer {
        tcsetattr(STDIN_FILENO, TCSANOW, &settings)
        FileHandle.standardError.write(Data("\n".utf8))
    }
    guard let line = readLine(strippingNewline: true) else { throw CommandFailure(description: "no password given") }
    return line
}
