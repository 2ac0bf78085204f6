import Foundation

/// A systemd unit that runs `pocket serve` at boot as an unprivileged user, restarts it when it
/// stops on a failure, and confines it with the hardening options that fit a small web server
/// with a data folder (`systemd-analyze security` rates it in the README).
public struct ServiceUnit: Sendable, Equatable {
    /// The `pocket` binary the unit runs (an absolute path the service user may read).
    public var executable: String
    /// The unprivileged user (and group) it runs as.
    public var user: String
    /// The data folder; nil for systemd's own state folder, `/var/lib/pocket`.
    public var dataDirectory: String?
    /// Further `pocket serve` arguments (`--host 0.0.0.0`, `--name …`).
    public var serveArguments: [String]
    /// A settings file of `POCKET_*=value` lines the unit reads (`/etc/default/pocket` in the
    /// Debian package), so settings change without editing the unit; nil for none.
    public var environmentFile: String?

    /// The open-file limit the unit gives Pocket (`LimitNOFILE=`).
    public static let fileLimit = 65536

    /// The folder systemd makes for the service when no data folder is named.
    public static let stateDirectory = "/var/lib/pocket"

    /// Creates a unit description.
    public init(executable: String, user: String = "pocket", dataDirectory: String? = nil, serveArguments: [String] = [], environmentFile: String? = nil) {
        self.executable = executable
        self.user = user
        self.dataDirectory = dataDirectory
        self.serveArguments = serveArguments
        self.environmentFile = environmentFile
    }

    /// Refuses values a unit file cannot carry: a relative path, or a character that would end a
    /// line or start a specifier or variable.
    public func validated() throws(ConfigurationError) -> ServiceUnit {
        let given = Self.value(of: "--data-dir", in: serveArguments)
        if let dataDirectory, let given, given != dataDirectory {
            throw .invalidServiceValue(given, reason: "the data folder is given twice (--data-dir \(dataDirectory) and after --): give it once")
        }
        for path in [executable, dataDirectory, given, backupDirectory, environmentFile].compactMap({ $0 }) where !path.hasPrefix("/") {
            throw .invalidServiceValue(path, reason: "it must be an absolute path")
        }
        guard !user.isEmpty, user.count <= 32, user.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_-".contains($0)) }),
              user.first?.isNumber == false else {
            throw .invalidServiceValue(user, reason: "a user name is letters, digits, - and _ and does not start with a digit")
        }
        for value in [executable, dataDirectory ?? "", environmentFile ?? ""] + serveArguments where value.contains(where: { $0.isNewline || $0 == "%" || $0 == "$" || $0 == "\\" }) {
            throw .invalidServiceValue(value, reason: "a unit file cannot carry line breaks, %, $ or \\ here")
        }
        return self
    }

    /// The port `pocket serve` will bind, read from the arguments (or its default).
    var port: Int {
        guard let index = serveArguments.firstIndex(of: "--port"), serveArguments.indices.contains(index + 1) else {
            return serveArguments.lazy.compactMap { $0.hasPrefix("--port=") ? Int($0.dropFirst(7)) : nil }.first ?? PocketConfiguration.defaultPort
        }
        return Int(serveArguments[index + 1]) ?? PocketConfiguration.defaultPort
    }

    /// The data folder the service uses: `--data-dir` of the unit, else one among the serve
    /// arguments (`-- --data-dir /srv/pocket`), else systemd's state folder.
    var servedDataDirectory: String {
        dataDirectory ?? Self.value(of: "--data-dir", in: serveArguments) ?? Self.stateDirectory
    }

    /// `--backup-dir` among the serve arguments: written by the daily backup, so writable too.
    var backupDirectory: String? {
        Self.value(of: "--backup-dir", in: serveArguments)
    }

    /// The folders the service writes, each once.
    var writablePaths: [String] {
        [servedDataDirectory, backupDirectory].compactMap { $0 }.reduce(into: []) { paths, path in if !paths.contains(path) { paths.append(path) } }
    }

    /// The unit file's text.
    public var text: String {
        let data = servedDataDirectory
        let arguments = ([executable, "serve", "--data-dir", data] + Self.removing("--data-dir", from: serveArguments)).map(Self.quoted).joined(separator: " ")
        // A port below 1024 needs this one capability; nothing else does.
        let capabilities = port < 1024 ? "CAP_NET_BIND_SERVICE" : ""
        // Homes are hidden, unless the binary or a folder Pocket writes is in one: then they are
        // read-only, and ReadWritePaths opens that folder again.
        let home = ([executable] + writablePaths).contains { path in ["/home/", "/root/"].contains { path.hasPrefix($0) } } ? "read-only" : "yes"
        // `-`: a missing file is no error, the defaults apply. Its POCKET_* lines are what
        // `pocket serve` reads when no option is given.
        let settings = environmentFile.map { "\nEnvironmentFile=-\($0)" } ?? ""
        return """
            # Pocket as a service: made by `pocket service unit`. Install it as
            # /etc/systemd/system/pocket.service, then: systemctl daemon-reload && systemctl enable --now pocket
            [Unit]
            Description=Pocket, five apps for the household
            After=network-online.target
            Wants=network-online.target

            [Service]
            Type=exec
            User=\(user)
            Group=\(user)\(settings)
            ExecStart=\(arguments)
            # A crash (or any failing exit) starts Pocket again; a clean stop does not.
            Restart=on-failure
            RestartSec=2
            TimeoutStopSec=20
            # systemd's default of 1,024 open files is reached by a few hundred idle sockets;
            # Pocket raises its soft limit to this and keeps handles back for its databases.
            LimitNOFILE=\(Self.fileLimit)
            StateDirectory=pocket
            StateDirectoryMode=0700
            UMask=0077
            ReadWritePaths=\(writablePaths.map(Self.quoted).joined(separator: " "))
            NoNewPrivileges=yes
            ProtectSystem=strict
            ProtectHome=\(home)
            PrivateTmp=yes
            PrivateDevices=yes
            DevicePolicy=closed
            ProtectKernelTunables=yes
            ProtectKernelModules=yes
            ProtectKernelLogs=yes
            ProtectControlGroups=yes
            ProtectClock=yes
            ProtectHostname=yes
            ProtectProc=invisible
            ProcSubset=pid
            RestrictSUIDSGID=yes
            RestrictRealtime=yes
            RestrictNamespaces=yes
            LockPersonality=yes
            MemoryDenyWriteExecute=yes
            RemoveIPC=yes
            SystemCallArchitectures=native
            SystemCallFilter=@system-service
            SystemCallFilter=~@privileged
            # Netlink lists the network interfaces for the pairing links.
            RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX AF_NETLINK
            CapabilityBoundingSet=\(capabilities)
            AmbientCapabilities=\(capabilities)

            [Install]
            WantedBy=multi-user.target

            """
    }

    /// The value of `option` in `arguments` (`--option value` or `--option=value`), the last one given.
    static func value(of option: String, in arguments: [String]) -> String? {
        var found: String?
        for (index, argument) in arguments.enumerated() {
            if argument == option, arguments.indices.contains(index + 1) { found = arguments[index + 1] }
            if argument.hasPrefix(option + "=") { found = String(argument.dropFirst(option.count + 1)) }
        }
        return found
    }

    /// `arguments` without `option` and its value.
    static func removing(_ option: String, from arguments: [String]) -> [String] {
        var kept: [String] = []
        var skipNext = false
        for argument in arguments {
            if skipNext { skipNext = false; continue }
            if argument == option { skipNext = true; continue }
            if argument.hasPrefix(option + "=") { continue }
            kept.append(argument)
        }
        return kept
    }

    /// A word of `ExecStart`, quoted when it holds a space or a quote.
    private static func quoted(_ word: String) -> String {
        guard word.isEmpty || word.contains(where: { $0 == " " || $0 == "\"" || $0 == "'" || $0 == "\t" }) else { return word }
        return "\"" + word.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
