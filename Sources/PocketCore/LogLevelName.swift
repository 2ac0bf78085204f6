import Logging

/// Parses the log level names accepted on the command line and in `POCKET_LOG_LEVEL`.
public enum LogLevelName {
    /// Every accepted name, most verbose first.
    public static let allNames = Logger.Level.allCases.map(\.rawValue)

    /// The level for a name such as `info` or `DEBUG`, or nil when there is none.
    public static func level(named name: String) -> Logger.Level? {
        Logger.Level(rawValue: name.lowercased())
    }
}

/// Sends log lines to stderr at `level`; called once per process, by `pocket` and PocketBench's server alike.
public func bootstrapLogging(level: Logger.Level) {
    LoggingSystem.bootstrap { label in
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = level
        return handler
    }
}
