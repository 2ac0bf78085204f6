import Foundation

/// Problems with how Pocket was asked to start; each message says what to change.
public enum ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The port is not a number in 0...65535.
    case invalidPort(String)
    /// The host is empty or contains characters no host name or address has.
    case invalidHost(String)
    /// The log level is not one swift-log knows.
    case invalidLogLevel(String)
    /// Only one half of the TLS certificate/key pair was given.
    case incompleteTLS
    /// `--trusted-proxy` is not an IP address.
    case invalidTrustedProxy(String)
    /// The data directory cannot be created or written.
    case dataDirectoryNotWritable(path: String, reason: String)
    /// A TLS file is missing or unreadable.
    case unreadableFile(path: String)
    /// A value a systemd unit cannot carry.
    case invalidServiceValue(String, reason: String)
    /// A value that is not what the option takes.
    case invalidOption(option: String, value: String, expected: String)
    /// `--name` is not a host name.
    case invalidName(String)
    /// `--no-https` together with the person's own certificate.
    case conflictingHTTPS
    /// `--http-port` without HTTPS, where there is nothing for it to lead to.
    case httpPortWithoutHTTPS
    /// `--http-port` and `--port` are the same port.
    case samePorts(Int)

    /// A one-line message a user can act on.
    public var description: String {
        switch self {
        case .invalidPort(let value):
            return "invalid port '\(value)': use a number from 0 to 65535"
        case .invalidHost(let value):
            return "invalid host '\(value)': use an IP address or host name such as 127.0.0.1 or 0.0.0.0"
        case .invalidLogLevel(let value):
            return "invalid log level '\(value)': use one of \(LogLevelName.allNames.joined(separator: ", "))"
        case .invalidTrustedProxy(let value):
            return "invalid --trusted-proxy '\(value)': give the proxy's IP address, such as 127.0.0.1"
        case .incompleteTLS:
            return "HTTPS needs both --tls-cert and --tls-key"
        case .dataDirectoryNotWritable(let path, let reason):
            return "data directory \(path) is not writable: \(reason)"
        case .unreadableFile(let path):
            return "cannot read \(path)"
        case .invalidServiceValue(let value, let reason):
            return "cannot put '\(value)' in a service unit: \(reason)"
        case .invalidOption(let option, let value, let expected):
            return "invalid \(option.hasPrefix("POCKET_") ? option : "--" + option) '\(value)': use \(expected)"
        case .invalidName(let value):
            return "invalid --name '\(value)': use a host name of letters, digits, hyphens and dots, such as pocket.local (not an address)"
        case .conflictingHTTPS:
            return "--no-https and --tls-cert contradict each other: leave out one of them"
        case .httpPortWithoutHTTPS:
            return "--http-port needs HTTPS (Pocket's own with --https, or --tls-cert/--tls-key); without it Pocket serves plain HTTP on --port"
        case .samePorts(let port):
            return "--http-port and --port are both \(port): give them different ports"
        }
    }
}
