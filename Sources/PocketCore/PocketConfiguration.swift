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

    /// Creates a configuration from already validated values.
    public init(host: String = defaultHost, port: Int = defaultPort, dataDirectory: URL, logLevel: Logger.Level = .info, tls: TLSFiles? = nil) {
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.logLevel = logLevel
        self.tls = tls
        self.trustedProxy = nil
    }

    /// Whether the server is reachable only from this machine.
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// The address a browser on this machine would open.
    public var baseURL: String {
        let scheme = tls == nil ? "http" : "https"
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

        /// Creates a set of command-line values.
        public init(host: String? = nil, port: String? = nil, dataDirectory: String? = nil, logLevel: String? = nil, tlsCertificate: String? = nil, tlsKey: String? = nil, trustedProxy: String? = nil) {
            self.host = host
            self.port = port
            self.dataDirectory = dataDirectory
            self.logLevel = logLevel
            self.tlsCertificate = tlsCertificate
            self.tlsKey = tlsKey
            self.trustedProxy = trustedProxy
        }
    }

    /// Resolves each setting: option first, then its `POCKET_*` variable, then the default.
    public static func resolve(options: Options, environment: [String: String]) throws(ConfigurationError) -> PocketConfiguration {
        func value(_ option: String?, _ variable: String) -> String? {
            if let option, !option.isEmpty { return option }
            if let env = environment[variable], !env.isEmpty { return env }
            return nil
        }

        let host = value(options.host, "POCKET_HOST") ?? defaultHost
        guard isPlausibleHost(host) else { throw .invalidHost(host) }

        var port = defaultPort
        if let text = value(options.port, "POCKET_PORT") {
            guard let number = Int(text), (0...65535).contains(number) else { throw .invalidPort(text) }
            port = number
        }

        var level = Logger.Level.info
        if let text = value(options.logLevel, "POCKET_LOG_LEVEL") {
            guard let parsed = LogLevelName.level(named: text) else { throw .invalidLogLevel(text) }
            level = parsed
        }

        let dataDirectory = value(options.dataDirectory, "POCKET_DATA_DIR")
            .map { URL(fileURLWithPath: expandTilde($0, environment: environment), isDirectory: true) }
            ?? defaultDataDirectory(environment: environment)

        let cert = value(options.tlsCertificate, "POCKET_TLS_CERT")
        let key = value(options.tlsKey, "POCKET_TLS_KEY")
        var tls: TLSFiles?
        switch (cert, key) {
        case let (cert?, key?): tls = TLSFiles(certificate: cert, key: key)
        case (nil, nil): tls = nil
        default: throw .incompleteTLS
        }

        var configuration = PocketConfiguration(host: host, port: port, dataDirectory: dataDirectory, logLevel: level, tls: tls)
        if let proxy = value(options.trustedProxy, "POCKET_TRUSTED_PROXY") {
            // An IP address only: a name could resolve to anything, and the check compares peers' addresses.
            guard proxy.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == ":" }), proxy.contains(where: { $0 == "." || $0 == ":" }) else {
                throw .invalidTrustedProxy(proxy)
            }
            configuration.trustedProxy = proxy
        }
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
