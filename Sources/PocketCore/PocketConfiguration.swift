import Foundation
import Logging

/// Everything Pocket needs to start, resolved from options, the environment and defaults.
public struct PocketConfiguration: Sendable, Equatable {
    /// Address the server binds.
    public var host: String
    /// Port the server binds; 0 asks the system for a free one.
    public var port: Int
    /// Folder for Pocket's databases and downloads.
    public var dataDirectory: URL
    /// Minimum level written to the log.
    public var logLevel: Logger.Level
    /// PEM certificate and key for HTTPS, when both are given.
    public var tls: TLSFiles?
    /// The reverse proxy (an IP address) whose `X-Forwarded-For`/`-Proto` are believed, if any.
    public var trustedProxy: String?
    /// Whether Pocket serves HTTPS with a certificate from its own certificate authority (`tls/` in
    /// the data folder), the way a phone on the LAN can be made to trust once.
    public var usesOwnCertificateAuthority: Bool
    /// The plain-HTTP listener's port (trust page, CA downloads, redirects to HTTPS), if there is one.
    public var httpPort: Int?
    /// Names phones reach Pocket by (`--name`), lowercased, before any address in links.
    public var names: [String]
    /// When and where `pocket serve` makes its daily backup; nil with `--no-backups`.
    public var backups: BackupSchedule?
    /// The daily backup: a time of day on the server's clock and the folder archives go to.
    public struct BackupSchedule: Sendable, Equatable {
        /// Where archives are kept (and pruned to the last 7 daily and 4 weekly).
        public var directory: URL
        /// Hour of the day, 0–23.
        public var hour: Int
        /// Minute of the hour, 0–59.
        public var minute: Int

        /// Creates a schedule.
        public init(directory: URL, hour: Int = 3, minute: Int = 30) {
            self.directory = directory
            self.hour = hour
            self.minute = minute
        }

        /// The next time the backup is due strictly after `date`, in `calendar`'s time zone.
        public func next(after date: Date, calendar: Calendar = .current) -> Date {
            let time = DateComponents(hour: hour, minute: minute, second: 0)
            return calendar.nextDate(after: date, matching: time, matchingPolicy: .nextTime) ?? date.addingTimeInterval(24 * 60 * 60)
        }
    }

    /// The backups folder inside a data folder, where backups go unless told otherwise.
    public static func defaultBackupDirectory(in dataDirectory: URL) -> URL {
        dataDirectory.appendingPathComponent(BackupMaker.backupsFolder, isDirectory: true)
    }

    /// Paths of a PEM certificate chain and its private key.
    public struct TLSFiles: Sendable, Equatable {
        /// Certificate chain (PEM).
        public var certificate: String
        /// Private key (PEM).
        public var key: String

        /// Creates a pair of TLS file paths.
        public init(certificate: String, key: String) {
            self.certificate = certificate
            self.key = key
        }
    }

    /// The default address: loopback only, so a LAN bind is always a deliberate choice.
    public static let defaultHost = "127.0.0.1"
    /// The default port.
    public static let defaultPort = 8080
    /// The default port when Pocket serves HTTPS with its own certificate authority.
    public static let defaultHTTPSPort = 8443
    /// The plain-HTTP listener's default port beside Pocket's own HTTPS: the port the plain server had,
    /// so an old `http://…:8080` link now leads to the trust page or a redirect.
    public static let defaultHTTPPort = 8080

    /// Creates a configuration from already validated values.
    public init(host: String = defaultHost, port: Int = defaultPort, dataDirectory: URL, logLevel: Logger.Level = .info, tls: TLSFiles? = nil) {
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.logLevel = logLevel
        self.tls = tls
        self.trustedProxy = nil
        self.usesOwnCertificateAuthority = false
        self.httpPort = nil
        self.names = []
        self.backups = BackupSchedule(directory: Self.defaultBackupDirectory(in: dataDirectory))
    }

    /// Whether the server is reachable only from this machine.
    public var isLoopback: Bool {
        Self.isLoopback(host)
    }

    /// Whether binding `host` keeps a server reachable only from this machine.
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// Whether the main listener speaks HTTPS (Pocket's own certificate or the person's).
    public var isHTTPS: Bool {
        tls != nil || usesOwnCertificateAuthority
    }

    /// The address a browser on this machine would open.
    public var baseURL: String {
        let scheme = isHTTPS ? "https" : "http"
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(shownHost):\(port)"
    }
}

// MARK: - Resolution

extension PocketConfiguration {
    /// Values given on the command line; nil means "not given".
    public struct Options: Sendable, Equatable {
        /// `--host`
        public var host: String?
        /// `--port`
        public var port: String?
        /// `--data-dir`
        public var dataDirectory: String?
        /// `--log-level`
        public var logLevel: String?
        /// `--tls-cert`
        public var tlsCertificate: String?
        /// `--tls-key`
        public var tlsKey: String?
        /// `--trusted-proxy`
        public var trustedProxy: String?
        /// `--https` (true) or `--no-https` (false)
        public var https: Bool?
        /// `--http-port`
        public var httpPort: String?
        /// Every `--name`
        public var names: [String]
        /// `--backups` (true) or `--no-backups` (false)
        public var backups: Bool?
        /// `--backup-dir`
        public var backupDirectory: String?
        /// `--backup-time`
        public var backupTime: String?

        /// Creates a set of command-line values.
        public init(host: String? = nil, port: String? = nil, dataDirectory: String? = nil, logLevel: String? = nil, tlsCertificate: String? = nil, tlsKey: String? = nil,
                    trustedProxy: String? = nil, https: Bool? = nil, httpPort: String? = nil, names: [String] = [],
                    backups: Bool? = nil, backupDirectory: String? = nil, backupTime: String? = nil) {
            self.host = host
            self.port = port
            self.dataDirectory = dataDirectory
            self.logLevel = logLevel
            self.tlsCertificate = tlsCertificate
            self.tlsKey = tlsKey
            self.trustedProxy = trustedProxy
            self.https = https
            self.httpPort = httpPort
            self.names = names
            self.backups = backups
            self.backupDirectory = backupDirectory
            self.backupTime = backupTime
        }
    }

    /// Resolves each setting (`Settings`): option first, then its `POCKET_*` variable, then the
    /// default; a blank value is one not given.
    public static func resolve(options: Options, environment: [String: String]) throws(ConfigurationError) -> PocketConfiguration {
        func value(_ option: String?, _ setting: Setting) -> String? {
            setting.given(option: option, environment: environment)
        }

        let host = value(options.host, Settings.host) ?? defaultHost
        guard isPlausibleHost(host) else { throw .invalidHost(host) }

        var level = Logger.Level.info
        if let text = value(options.logLevel, Settings.logLevel) {
            guard let parsed = LogLevelName.level(named: text) else { throw .invalidLogLevel(text) }
            level = parsed
        }

        let dataDirectory = value(options.dataDirectory, Settings.dataDirectory)
            .map { URL(fileURLWithPath: expandTilde($0, environment: environment), isDirectory: true) }
            ?? defaultDataDirectory(environment: environment)

        let cert = value(options.tlsCertificate, Settings.tlsCertificate)
        let key = value(options.tlsKey, Settings.tlsKey)
        var tls: TLSFiles?
        switch (cert, key) {
        case let (cert?, key?): tls = TLSFiles(certificate: cert, key: key)
        case (nil, nil): tls = nil
        default: throw .incompleteTLS
        }

        let https = try switchChoice(option: options.https, Settings.https, environment: environment)
        if https == false, tls != nil { throw .conflictingHTTPS }
        // Beyond loopback a phone needs HTTPS, so Pocket's own is the default there.
        let ownAuthority = tls == nil && (https ?? !isLoopback(host))
        let port = try portNumber(value(options.port, Settings.port), option: options.port, Settings.port) ?? (ownAuthority ? defaultHTTPSPort : defaultPort)
        var httpPort = try portNumber(value(options.httpPort, Settings.httpPort), option: options.httpPort, Settings.httpPort)
        if httpPort != nil, !ownAuthority, tls == nil { throw .httpPortWithoutHTTPS }
        if ownAuthority, httpPort == nil { httpPort = defaultHTTPPort }
        if let httpPort, httpPort != 0, httpPort == port { throw .samePorts(port) }

        var configuration = PocketConfiguration(host: host, port: port, dataDirectory: dataDirectory, logLevel: level, tls: tls)
        configuration.usesOwnCertificateAuthority = ownAuthority
        configuration.httpPort = httpPort
        configuration.names = try names(options.names.isEmpty ? value(nil, Settings.name).map { [$0] } ?? [] : options.names)
        if let proxy = value(options.trustedProxy, Settings.trustedProxy) {
            // An IP address only: a name could resolve to anything, and the check compares peers' addresses.
            guard proxy.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == ":" }), proxy.contains(where: { $0 == "." || $0 == ":" }) else {
                throw .invalidTrustedProxy(proxy)
            }
            configuration.trustedProxy = proxy
        }
        configuration.backups = try backupSchedule(options: options, dataDirectory: dataDirectory, value: value, environment: environment)
        return configuration
    }

    /// `$XDG_DATA_HOME/pocket`, else `~/.local/share/pocket`.
    public static func defaultDataDirectory(environment: [String: String]) -> URL {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("pocket", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".local/share/pocket", isDirectory: true)
    }
}

// MARK: - Private

private extension PocketConfiguration {
    static func portNumber(_ text: String?, option: String?, _ setting: Setting) throws(ConfigurationError) -> Int? {
        guard let text else { return nil }
        guard let number = Int(text), (0...65535).contains(number) else {
            throw setting == Settings.port ? .invalidPort(text) : .invalidOption(option: setting.source(option: option), value: text, expected: "a number from 0 to 65535")
        }
        return number
    }

    /// An on/off option (`--https`/`--no-https`), else its variable (1/0, true/false, yes/no, on/off), else nil.
    static func switchChoice(option: Bool?, _ setting: Setting, environment: [String: String]) throws(ConfigurationError) -> Bool? {
        if let option { return option }
        guard let text = setting.given(option: nil, environment: environment)?.lowercased() else { return nil }
        let variable = setting.variable ?? ""
        switch text {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw .invalidOption(option: variable, value: text, expected: "1 or 0 (true/false, yes/no, on/off)")
        }
    }

    /// The daily backup, unless `--no-backups`/`POCKET_BACKUPS=0`: `--backup-time HH:MM` (24-hour,
    /// the server's local time; default 03:30) into `--backup-dir` (default `backups/` in the data folder).
    static func backupSchedule(options: Options, dataDirectory: URL, value: (String?, Setting) -> String?, environment: [String: String]) throws(ConfigurationError) -> BackupSchedule? {
        let enabled = try switchChoice(option: options.backups, Settings.backups, environment: environment) ?? true
        let directory = value(options.backupDirectory, Settings.backupDirectory)
        let timeText = value(options.backupTime, Settings.backupTime)
        var schedule = BackupSchedule(directory: defaultBackupDirectory(in: dataDirectory))
        if let directory {
            schedule.directory = URL(fileURLWithPath: directory, isDirectory: true, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL
        }
        if let timeText {
            let parts = timeText.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
                  let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute) else {
                throw .invalidOption(option: Settings.backupTime.source(option: options.backupTime), value: timeText, expected: "a time of day as HH:MM, such as 03:30")
            }
            schedule.hour = hour
            schedule.minute = minute
        }
        return enabled ? schedule : nil
    }

    /// Each name (an option's values, or `POCKET_NAME` split at commas), checked and lowercased, without repeats.
    static func names(_ given: [String]) throws(ConfigurationError) -> [String] {
        var names: [String] = []
        for raw in given.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
            let name = raw.trimmingCharacters(in: .whitespaces).lowercased()
            guard HostName.isValid(name) else { throw .invalidName(String(raw)) }
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    static func isPlausibleHost(_ host: String) -> Bool {
        guard !host.isEmpty, host.count <= 253 else { return false }
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: ".-:%"))
        return host.unicodeScalars.allSatisfy { allowed.contains($0) && $0.isASCII }
    }

    static func expandTilde(_ path: String, environment: [String: String]) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + path.dropFirst()
    }
}
