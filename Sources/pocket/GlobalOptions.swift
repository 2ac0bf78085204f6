import ArgumentParser
import Foundation
import Logging
import PocketCore

/// Options every command that touches data shares.
struct DataOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: ArgumentHelp("Folder for Pocket's data (env POCKET_DATA_DIR; default $XDG_DATA_HOME/pocket or ~/.local/share/pocket).", valueName: "path"))
    var dataDirectory: String?

    @Option(name: .customLong("log-level"), help: ArgumentHelp("trace, debug, info, notice, warning, error or critical (env POCKET_LOG_LEVEL; default info).", valueName: "level"))
    var logLevel: String?
}

extension PocketConfiguration.Options {
    /// Only the data options, for commands that do not serve.
    init(_ data: DataOptions) {
        self.init(dataDirectory: data.dataDirectory, logLevel: data.logLevel)
    }
}

/// Sends log lines to stderr at the configured level; called once per process.
func bootstrapLogging(level: Logger.Level) {
    LoggingSystem.bootstrap { label in
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = level
        return handler
    }
}
