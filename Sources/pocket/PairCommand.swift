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
    @OptionGroup var listener: ListenerOptions
    @OptionGroup var secure: HTTPSOptions
    @OptionGroup var data: DataOptions

    func run() async throws {
        let options = PocketConfiguration.Options(host: listener.host, port: listener.port, dataDirectory: data.dataDirectory, logLevel: data.logLevel,
                                                  tlsCertificate: listener.tlsCertificate, tlsKey: listener.tlsKey,
                                                  https: secure.https, httpPort: secure.httpPort, names: secure.names)
        let configuration = try PocketConfiguration.resolve(options: options, environment: ProcessInfo.processInfo.environment)
        // Asked of the server's folder only: pair never makes a data folder or an empty people.sqlite.
        let store = try openPeople(data, mustExist: true)
        guard let person = try await store.person(named: name) else {
            // The most common cause is another data folder than the server's: say which was read.
            let folder = configuration.dataDirectory.appendingPathComponent(PeopleDatabase.fileName).path
            throw CommandFailure(description: PeopleError.unknownPerson(TerminalText.safe(name)).description
                + " (looked in \(TerminalText.safe(folder)); give the server's --data-dir if it uses another)")
        }
        let links = try pairingLinks(configuration)
        // Refused before a code is made: a link no phone can open, or one whose scheme is not what
        // the server speaks (plain HTTP to the TLS port would carry the code in the clear).
        let authority = configuration.usesOwnCertificateAuthority ? try? TLSFolder(dataDirectory: configuration.dataDirectory).existingAuthority(now: Date()) : nil
        if let problem = noPhoneLinkProblem(configuration, links: links, authority: authority) {
            throw CommandFailure(description: problem)
        }
        let secure = links.secure
        switch ListeningCheck.spoken(port: configuration.port) {
        case .plainHTTP where secure:
            throw CommandFailure(description: "the server on port \(configuration.port) speaks plain HTTP, not HTTPS: give pair the same --no-https (or --tls-cert) as `pocket serve`")
        case .somethingElse where !secure:
            throw CommandFailure(description: "the server on port \(configuration.port) does not speak plain HTTP (it is HTTPS): give pair the same --host, --https or --tls-cert as `pocket serve`, so the link does not send the code unencrypted")
        default: break
        }
        let code = try await store.makePairingCode(for: person.id)
        let paths = PeopleRoute.pairingPaths(code: code.linkCode)
        print(PairingPrintout.text(title: "Scan on \(TerminalText.safe(person.name))’s phone:", links: links.links(to: paths.link)))
        let typed = links.baseURLs[0] + paths.typing
        print(links.trustPage == nil ? "Or open \(typed) on the phone and type \(code.displayedShortCode)." : "Or, on a phone that trusts Pocket, open \(typed) and type \(code.displayedShortCode).")
        print("Valid until \(code.expiresAt.formatted(date: .omitted, time: .shortened)), once.")
        // A link to a port where nothing listens would only fail on the phone: say so here.
        if !ListeningCheck.answers(port: configuration.port) {
            print("Note: no Pocket answers on port \(configuration.port) of this machine: start `pocket serve` with the same options, or give pair the server's --port.")
        } else if let trustPage = links.trustPage, !ListeningCheck.answers(port: trustPage.port) {
            print("Note: nothing answers on --http-port \(trustPage.port) of this machine, where the QR code's trust page is: give pair the server's --http-port.")
        }
        if let authority {
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
        return PhoneLinks(hosts: hosts, secure: true, port: configuration.port, trustPage: .init(port: httpPort, path: TrustRoute.pageHref))
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
/// When no link reaches beyond this machine (`problem`), it says why instead of offering a QR code a
/// phone cannot open, and gives the setup link as text for a browser on this machine.
enum StartupPrintout {
    static func text(links: PhoneLinks, authority: CertificateAuthority?, setupPath: String?, problem: String? = nil) -> String? {
        if let problem {
            var lines = ["WARNING: " + problem + "."]
            if let setupPath { lines.append("No one is set up yet. In a browser on this machine, open:\n" + links.links(to: setupPath).map { "  \($0)" }.joined(separator: "\n")) }
            if let authority { lines.append(fingerprintLine(authority)) }
            return lines.joined(separator: "\n")
        }
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
    /// What a port answers a plain HTTP request with.
    enum Spoken: Equatable {
        /// Nothing listens (or the port is not asked).
        case nothing
        /// An HTTP response.
        case plainHTTP
        /// Something else: a TLS alert, silence, or a closed connection, as from an HTTPS server.
        case somethingElse
    }

    static func answers(port: Int) -> Bool {
        guard let descriptor = connected(port: port) else { return false }
        close(descriptor)
        return true
    }

    /// Sends `GET /healthz` in plain HTTP and reads the first bytes (waiting at most 3 s): an
    /// HTTPS server answers with a TLS alert or closes, never with `HTTP/`.
    static func spoken(port: Int) -> Spoken {
        guard let descriptor = connected(port: port) else { return .nothing }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 3, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else { return .somethingElse }
        var reply = [UInt8](repeating: 0, count: 5)
        var received = 0
        while received < reply.count {
            let count = reply.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress.map { $0 + received }, $0.count - received, 0) }
            guard count > 0 else { break }
            received += count
        }
        return reply.prefix(received) == Array("HTTP/".utf8)[...] ? .plainHTTP : .somethingElse
    }

    /// A socket connected to `port` on 127.0.0.1, or nil when nothing listens there.
    private static func connected(port: Int) -> Int32? {
        guard (1...65535).contains(port) else { return nil }
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }
}
