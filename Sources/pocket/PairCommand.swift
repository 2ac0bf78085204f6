import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PocketCore
import PocketTLS
import PocketWeb

/// `pocket pair NAME`: a QR code that signs a phone in as NAME, for the running server.
struct PairCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pair",
        abstract: "Print a QR code and a short code that sign a phone in as NAME (valid 5 minutes, once).",
        discussion: "Give the same --host, --port, --https/--no-https, --http-port, --name, --tls-cert and --data-dir as the running `pocket serve` (or the same POCKET_* variables), so the printed links are the server's."
    )

    @Argument(help: "Whose phone it is.") var name: String
    @Option(help: ArgumentHelp("The address `pocket serve` binds (env POCKET_HOST; default 127.0.0.1).", valueName: "address")) var host: String?
    @Option(help: ArgumentHelp("The port `pocket serve` binds (env POCKET_PORT; default 8443 with Pocket's own HTTPS, else 8080).", valueName: "port")) var port: String?
    @OptionGroup var secure: HTTPSOptions
    @Option(name: .customLong("tls-cert"), help: ArgumentHelp("The server's certificate (env POCKET_TLS_CERT): links use https.", valueName: "file")) var tlsCertificate: String?
    @Option(name: .customLong("tls-key"), help: ArgumentHelp("The server's key (env POCKET_TLS_KEY).", valueName: "file")) var tlsKey: String?
    @OptionGroup var data: DataOptions

    func run() async throws {
        let options = PocketConfiguration.Options(host: host, port: port, dataDirectory: data.dataDirectory, logLevel: data.logLevel, tlsCertificate: tlsCertificate, tlsKey: tlsKey,
                                                  https: secure.https, httpPort: secure.httpPort, names: secure.names)
        let configuration = try PocketConfiguration.resolve(options: options, environment: ProcessInfo.processInfo.environment)
        let store = try openPeople(data)
        guard let person = try await store.person(named: name) else {
            // The most common cause is another data folder than the server's: say which was read.
            let folder = configuration.dataDirectory.appendingPathComponent("people.sqlite").path
            throw CommandFailure(description: PeopleError.unknownPerson(TerminalText.safe(name)).description
                + " (looked in \(TerminalText.safe(folder)); give the server's --data-dir if it uses another)")
        }
        let links = try pairingLinks(configuration)
        let code = try await store.makePairingCode(for: person.id)
        let paths = PeopleRoute.pairingPaths(code: code.linkCode)
        print(PairingPrintout.text(title: "Scan on \(TerminalText.safe(person.name))’s phone:", links: links.links(to: paths.link)))
        let typed = links.baseURLs[0] + paths.typing
        print(links.trustPage == nil ? "Or open \(typed) on the phone and type \(code.displayedShortCode)." : "Or, on a phone that trusts Pocket, open \(typed) and type \(code.displayedShortCode).")
        print("Valid until \(code.expiresAt.formatted(date: .omitted, time: .shortened)), once.")
        // A link to a port where nothing listens would only fail on the phone: say so here.
        if !ListeningCheck.answers(port: configuration.port) {
            print("Note: no Pocket answers on port \(configuration.port) of this machine: start `pocket serve` with the same options, or give pair the server's --port.")
        }
        if configuration.usesOwnCertificateAuthority, let authority = try? TLSFolder(dataDirectory: configuration.dataDirectory).existingAuthority(now: Date()) {
            print(StartupPrintout.fingerprintLine(authority))
        }
    }

    /// The server's links: with Pocket's own CA, the hosts its current certificate covers (what
    /// the server itself offers), else what this machine is reachable at.
    private func pairingLinks(_ configuration: PocketConfiguration) throws -> PhoneLinks {
        guard configuration.usesOwnCertificateAuthority, let httpPort = configuration.httpPort else {
            return phoneLinks(configuration, port: configuration.port)
        }
        if let leaf = TLSFolder(dataDirectory: configuration.dataDirectory).storedLeaf() {
            return WebTrust.phoneLinks(leaf: leaf, httpsPort: configuration.port, httpPort: httpPort)
        }
        let hosts = ServedNames.live(configuredNames: configuration.names, bindHost: configuration.host).phoneHosts
        return PhoneLinks(hosts: hosts, secure: true, port: configuration.port, trustPage: .init(port: httpPort, path: TrustRoute.page.href))
    }
}

/// A QR code of the first link, then every link, for the terminal.
enum PairingPrintout {
    static func text(title: String, links: [String]) -> String {
        var lines = [title]
        if let first = links.first, let qr = QRCode(first) {
            lines.append(qr.terminalText)
        }
        lines += links.map { "  \($0)" }
        return lines.joined(separator: "\n")
    }
}

/// What `pocket serve` prints once it listens: with Pocket's own CA, where it is reachable (name
/// first), a QR code for a phone, and the CA's fingerprint; with nobody set up, the setup link.
enum StartupPrintout {
    static func text(links: PhoneLinks, authority: CertificateAuthority?, setupPath: String?) -> String? {
        guard let authority else {
            return setupPath.map { PairingPrintout.text(title: "No one is set up yet. Open this one-time setup link to choose the owner’s name and password:", links: links.links(to: $0)) }
        }
        let title = setupPath == nil
            ? "To open Pocket on a phone, scan this; the first time, the page shows how to trust Pocket:"
            : "No one is set up yet. Scan this on the owner’s phone (the page first shows how to trust Pocket) to choose the owner’s name and password:"
        return [
            "Pocket is reachable at:\n" + links.baseURLs.map { "  \($0)" }.joined(separator: "\n"),
            PairingPrintout.text(title: title, links: links.links(to: setupPath ?? "/")),
            fingerprintLine(authority),
        ].joined(separator: "\n")
    }

    /// The CA's fingerprint, which the trust page shows too, so the person can compare them.
    static func fingerprintLine(_ authority: CertificateAuthority) -> String {
        "Pocket’s certificate authority “\(TerminalText.safe(authority.displayName))”, SHA-256 \(authority.fingerprint)"
    }
}

/// Whether something listens on a port of this machine, asked over loopback (a server bound to
/// all addresses answers there too; one bound to a single LAN address is not asked).
enum ListeningCheck {
    static func answers(port: Int) -> Bool {
        guard (1...65535).contains(port) else { return false }
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return true }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return connected == 0
    }
}
