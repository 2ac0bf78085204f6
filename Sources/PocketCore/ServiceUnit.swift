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

    /// The open-file limit the unit gives Pocket (`LimitNOFILE=`).
    public static let fileLimit = 65536

    /// The folder systemd makes for the service when no data folder is named.
    public static let stateDirectory = "/var/lib/pocket"

    /// Creates a unit description.
    public init(executable: String, user: String = "pocket", dataDirectory: String? = nil, serveArguments: [String] = []) {
        self.executable = executable
        self.user = user
        self.dataDirectory = dataDirectory
        self.serveArguments = serveArguments
    }

    /// Refuses values a unit file cannot carry: a relative path, or a character that would end a
    /// line or start a specifier or variable.
    public func validated() throws(ConfigurationError) -> ServiceUnit {
        for path in [executable, dataDirectory].compactMap({ $0 }) where !path.hasPrefix("/") {
            throw .invalidServiceValue(path, reason: "it must be an absolute path")
        }
        guard !user.isEmpty, user.count <= 32, user.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_-".contains($0)) }),
              user.first?.isNumber == false else {
            throw .invalidServiceValue(user, reason: "a user name is letters, digits, - and _ and does not start with a digit")
        }
        for value in [executable, dataDirectory ?? ""] + serveArguments where value.contains(where: { $0.isNewline || $0 == "%" || $0 == "$" || $0 == "\\" }) {
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

    /// The unit file's text.
    public var text: String {
        let data = dataDirectory ?? Self.stateDirectory
        let arguments = ([executable, "serve", "--data-dir", data] + serveArguments).map(Self.quoted).joined(separator: " ")
        // A port below 1024 needs this one capability; nothing else does.
        let capabilities = port < 1024 ? "CAP_NET_BIND_SERVICE" : ""
        // A binary under a home folder must stay readable there; elsewhere homes are hidden.
        let home = ["/home/", "/root/"].contains { executable.hasPrefix($0) } ? "read-only" : "yes"
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
            Group=\(user)
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
            ReadWritePaths=\(data)
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

    /// A word of `ExecStart`, quoted when it holds a space or a quote.
    private static func quoted(_ word: String) -> String {
        guard word.isEmpty || word.contains(where: { $0 == " " || $0 == "\"" || $0 == "'" || $0 == "\t" }) else { return word }
        return "\"" + word.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
