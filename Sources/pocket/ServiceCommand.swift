import ArgumentParser
import Foundation
import PocketCore

/// `pocket service`: running Pocket as a system service.
struct ServiceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "service",
        abstract: "Run Pocket as a service that starts at boot and restarts itself.",
        subcommands: [Unit.self]
    )

    /// `pocket service unit`: prints a systemd unit for this binary.
    struct Unit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unit",
            abstract: "Print a systemd unit that runs this pocket binary as an unprivileged user.",
            discussion: """
                Arguments after -- go to `pocket serve`, e.g. `pocket service unit --user pocket -- --host 0.0.0.0`. \
                Save it as /etc/systemd/system/pocket.service, then `systemctl daemon-reload && systemctl enable --now pocket`.
                """
        )

        @Option(help: ArgumentHelp("The user (and group) Pocket runs as (default pocket).", valueName: "name"))
        var user = "pocket"

        @Option(name: .customLong("data-dir"), help: ArgumentHelp("The data folder (default \(ServiceUnit.stateDirectory), made by systemd).", valueName: "path"))
        var dataDirectory: String?

        @Option(name: .customLong("environment-file"), help: ArgumentHelp("A file of POCKET_*=value settings the unit reads, e.g. /etc/default/pocket.", valueName: "path"))
        var environmentFile: String?

        @Option(name: .customLong("executable"), help: ArgumentHelp("The pocket binary the unit runs, for packagers (default this binary).", valueName: "path"))
        var executablePath: String?

        @Argument(parsing: .postTerminator, help: "`pocket serve` arguments, after --.")
        var serveArguments: [String] = []

        func run() async throws {
            let executable = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.resolvingSymlinksInPath().path
            let unit = try ServiceUnit(executable: executablePath ?? Bundle.main.executablePath ?? executable, user: user, dataDirectory: dataDirectory,
                                       serveArguments: serveArguments, environmentFile: environmentFile).validated()
            print(unit.text, terminator: "")
        }
    }
}
