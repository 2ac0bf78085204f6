import Foundation

/// One setting of `pocket serve` (and the commands that share it): its option, its environment
/// variable, its default and its one-line help, said here once. The command-line parser builds its
/// options and `--help` from these, `PocketConfiguration.resolve` reads the variables by these
/// names, the apps take their defaults from here, and a test keeps README.md's configuration table
/// equal to `Settings.all`.
public struct Setting: Sendable, Hashable {
    /// The long option without its dashes (`host` for `--host`); nil when only the variable sets it.
    public let option: String?
    /// The `POCKET_*` variable; nil when only the option sets it.
    public let variable: String?
    /// The default as a person reads it (`127.0.0.1`), or nil when there is none.
    public let defaultText: String?
    /// What the value is, in `--help` (`address`, `port`).
    public let valueName: String?
    /// One line for `--help`, without the variable and default (those are added).
    public let help: String

    /// `--help`'s line: the help, then where else it comes from and its default.
    public var helpLine: String {
        let origins = [variable.map { "env \($0)" }, defaultText.map { "default \($0)" }].compactMap { $0 }
        return origins.isEmpty ? help : "\(help) (\(origins.joined(separator: "; ")))."
    }

    /// The value given: the option if it is not blank, else the variable if it is not blank,
    /// trimmed either way; nil when neither is given. Blank means not given, for every setting.
    public func given(option value: String?, environment: [String: String]) -> String? {
        [value, variable.flatMap { environment[$0] }].lazy
            .compactMap { $0?.trimmingCharacters(in: .whitespaces) }
            .first { !$0.isEmpty }
    }

    /// The name a bad value is reported under: the option when the value came from it, else the variable.
    public func source(option value: String?) -> String {
        let fromOption = value.map { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? false
        return (fromOption ? option : variable) ?? option ?? variable ?? ""
    }

    /// The default as a URL, for settings whose default is one address.
    public var defaultURL: URL? {
        defaultText.flatMap { URL(string: $0) }
    }
}

/// Every setting, in the order README.md's configuration table lists them.
public enum Settings {
    /// `--host`
    public static let host = Setting(option: "host", variable: "POCKET_HOST", defaultText: "127.0.0.1", valueName: "address",
                                     help: "Address to bind; only loopback unless another address is given")
    /// `--port`
    public static let port = Setting(option: "port", variable: "POCKET_PORT", defaultText: "8443 with Pocket's own HTTPS, else 8080", valueName: "port",
                                     help: "Port to bind; 0 picks a free one")
    /// `--https`, `--no-https`
    public static let https = Setting(option: "https", variable: "POCKET_HTTPS", defaultText: "on when --host is beyond loopback and no --tls-cert is given; off on loopback", valueName: nil,
                                      help: "Serve HTTPS with Pocket's own certificate authority; --no-https turns it off (behind a TLS proxy); the variable takes 1/0")
    /// `--http-port`
    public static let httpPort = Setting(option: "http-port", variable: "POCKET_HTTP_PORT", defaultText: "8080 with Pocket's own HTTPS; none otherwise", valueName: "port",
                                         help: "Plain-HTTP port for the trust page, the certificate downloads and redirects to HTTPS")
    /// `--name`
    public static let name = Setting(option: "name", variable: "POCKET_NAME", defaultText: "the computer's <hostname>.local, where it resolves", valueName: "host",
                                     help: "A name phones reach Pocket by, used in links before any address; repeat for more (the variable takes them comma-separated)")
    /// `--data-dir`
    public static let dataDirectory = Setting(option: "data-dir", variable: "POCKET_DATA_DIR", defaultText: "$XDG_DATA_HOME/pocket, else ~/.local/share/pocket", valueName: "path",
                                              help: "Folder for Pocket's data")
    /// `--log-level`
    public static let logLevel = Setting(option: "log-level", variable: "POCKET_LOG_LEVEL", defaultText: "info", valueName: "level",
                                         help: "trace, debug, info, notice, warning, error or critical")
    /// `--tls-cert`
    public static let tlsCertificate = Setting(option: "tls-cert", variable: "POCKET_TLS_CERT", defaultText: nil, valueName: "file",
                                               help: "PEM certificate chain: serve HTTPS with it (needs --tls-key)")
    /// `--tls-key`
    public static let tlsKey = Setting(option: "tls-key", variable: "POCKET_TLS_KEY", defaultText: nil, valueName: "file",
                                       help: "PEM private key for --tls-cert")
    /// `--trusted-proxy`
    public static let trustedProxy = Setting(option: "trusted-proxy", variable: "POCKET_TRUSTED_PROXY", defaultText: nil, valueName: "address",
                                             help: "The reverse proxy's IP address: only requests from it may set the client address and scheme with X-Forwarded-For/-Proto")
    /// `--manifest-url`
    public static let sciManifest = Setting(option: "manifest-url", variable: "POCKET_SCI_MANIFEST_URL", defaultText: "http://scriptures.byu.edu/is543/sci-core.json", valueName: "url",
                                            help: "Conference: the database manifest, sci-core.json")
    /// `POCKET_SCI_TALKS_URL`
    public static let sciTalks = Setting(option: nil, variable: "POCKET_SCI_TALKS_URL", defaultText: "http://scriptures.byu.edu", valueName: nil,
                                         help: "Conference: where talk texts are fetched from")
    /// `--auto-update`
    public static let autoUpdate = Setting(option: "auto-update", variable: nil, defaultText: "off", valueName: nil,
                                           help: "Conference: install a new database at start-up without asking")
    /// `--backup-dir`
    public static let backupDirectory = Setting(option: "backup-dir", variable: "POCKET_BACKUP_DIR", defaultText: "backups/ in the data folder", valueName: "folder",
                                                help: "Folder for the daily backups")
    /// `--backup-time`
    public static let backupTime = Setting(option: "backup-time", variable: "POCKET_BACKUP_TIME", defaultText: "03:30", valueName: "time",
                                           help: "Time of day of the daily backup, HH:MM on this computer's clock")
    /// `--backups`, `--no-backups`
    public static let backups = Setting(option: "backups", variable: "POCKET_BACKUPS", defaultText: "on", valueName: nil,
                                        help: "Make a backup every day, keeping the last 7 daily and 4 weekly; the variable takes 1/0")
    /// `--demo`
    public static let demo = Setting(option: "demo", variable: nil, defaultText: "off", valueName: nil,
                                     help: "Murals: also serve a built-in demo murals service (synthetic murals, labelled \"Demo data\") and use it instead of the real one, so the app works with no network")
    /// `POCKET_MURALS_URL`
    public static let muralsURL = Setting(option: nil, variable: "POCKET_MURALS_URL",
                                          defaultText: "https://cgi.csc.liv.ac.uk/~phil/Teaching/COMP228/nbm/data2.php?class=newbrighton_murals", valueName: nil,
                                          help: "Murals: the murals feed")
    /// `POCKET_MURALS_IMAGES_URL`
    public static let muralsImagesURL = Setting(option: nil, variable: "POCKET_MURALS_IMAGES_URL",
                                                defaultText: "https://cgi.csc.liv.ac.uk/~phil/Teaching/COMP228/nbm_images/", valueName: nil,
                                                help: "Murals: the folder the murals' pictures are under")
    /// `POCKET_MURALS_TILES`
    public static let muralsTiles = Setting(option: nil, variable: "POCKET_MURALS_TILES", defaultText: "https://tile.openstreetmap.org/{z}/{x}/{y}.png", valueName: nil,
                                            help: "Murals: the map's tile template, with {z}, {x} and {y}")
    /// `POCKET_LEAFLET_DIR`
    public static let leafletDirectory = Setting(option: nil, variable: "POCKET_LEAFLET_DIR", defaultText: "/usr/share/javascript/leaflet", valueName: nil,
                                                 help: "Murals: the folder with Leaflet's leaflet.js, leaflet.css and images/")
    /// `POCKET_PLATES_IMAGE_BASE`
    public static let platesImageBase = Setting(option: nil, variable: "POCKET_PLATES_IMAGE_BASE", defaultText: nil, valueName: nil,
                                                help: "Plates: the scheme, host and port plate pictures are fetched from instead of their own")

    /// Every setting, in README.md's order.
    public static let all: [Setting] = [
        host, port, https, httpPort, name, dataDirectory, logLevel, tlsCertificate, tlsKey, trustedProxy,
        sciManifest, sciTalks, autoUpdate, backupDirectory, backupTime, backups, demo,
        muralsURL, muralsImagesURL, muralsTiles, leafletDirectory, platesImageBase,
    ]
}
