import ArgumentParser
import Foundation
import PocketCore

/// `pocket`: runs the Pocket server and, per app, scripting subcommands.
///
/// Every command names itself (`commandName:`) although ArgumentParser would derive the same
/// name from the type: deriving it calls `String(describing:)` on the type, and each such call
/// makes the Swift runtime scan every protocol conformance of the binary and its libraries, about
/// 2 million instructions per command, 30 million on every run of any command.
@main
struct PocketCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pocket",
        abstract: "Five classic mobile apps behind one home screen, served to your phone.",
        version: PocketVersion.current,
        subcommands: [Serve.self, UsersCommand.self, PairCommand.self, TrustCommand.self, Convert.self, ConferenceCommand.self, MuralsCommand.self, ServiceCommand.self,
                      BackupCommand.self, RestoreCommand.self, SetupLinkCommand.self],
        defaultSubcommand: Serve.self
    )

    /// Parses and runs, printing any failure as one `pocket: …` line on stderr.
    static func main() async {
        ProcessMemory.returnLargeBlocksToSystem()
        // Every file Pocket writes (databases with password hashes and sessions, downloads,
        // backups) is its owner's alone: 0600 files in 0700 folders, whoever starts it and however.
        umask(0o077)
        do {
            // A plain `pocket convert` skips ArgumentParser's start-up (see ConvertRequest+CommandLine).
            if let request = ConvertRequest(commandLine: CommandLine.arguments) {
                try request.run()
                return
            }
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                exit(withError: error) // --help and --version print their own text
            }
            // Messages carry outside text (manifest values, file names, feed titles): never let it drive the terminal.
            FileHandle.standardError.write(Data("pocket: \(TerminalText.safe(oneLineMessage(for: error)))\n".utf8))
            Foundation.exit(code.rawValue)
        }
    }

    private static func oneLineMessage(for error: any Error) -> String {
        if let error = error as? ConfigurationError { return error.description }
        if let error = error as? CommandFailure { return error.description }
        if let error = error as? BackupError { return error.description }
        let message = message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
        return message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message
    }
}

/// Prints a line that may hold outside text (titles, names, manifest values) with its control
/// characters shown escaped, so no value can move the cursor or clear the terminal.
func say(_ text: String) {
    print(TerminalText.safeLines(text))
}

/// A failure already explained in one line.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
}
