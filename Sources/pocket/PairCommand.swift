import ArgumentParser
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
            throw CommandFailure(description: PeopleError.unknownPerson(TerminalText.safe(name)).description)
        }
        let links = try pairingLinks(configuration)
        let code = try await store.makePairingCode(for: person.id)
        print(PairingPrintout.text(title: "Scan on \(TerminalText.safe(person.name))’s phone:", links: links.links(to: PeopleRoute.joinLink(code.linkCode).href)))
        let typed = links.baseURLs[0] + PeopleRoute.join.href
        print(links.trustPage == nil ? "Or open \(typed) on the phone and type \(code.displayedShortCode)." : "Or, on a phone that trusts Pocket, open \(typed) and type \(code.displayedShortCode).")
        print("Valid until \(code.expiresAt.formatted(date: .omitted, time: .shortened)), once.")
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
