import ArgumentParser
import Foundation
import PocketCore
import PocketTLS

/// `pocket trust`: Pocket's own certificate authority, for comparing with a phone, and its PEM.
struct TrustCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trust",
        abstract: "Print the fingerprint and location of Pocket's certificate authority and what its current certificate covers.",
        discussion: "`pocket serve` makes the certificate authority the first time it serves HTTPS with it (--host beyond loopback, or --https)."
    )

    @Flag(help: "Write the certificate authority's certificate (PEM) to standard output, and nothing else.")
    var pem = false

    @OptionGroup var data: DataOptions

    func run() throws {
        let configuration = try PocketConfiguration.resolve(options: .init(data), environment: ProcessInfo.processInfo.environment)
        let folder = TLSFolder(dataDirectory: configuration.dataDirectory)
        guard folder.hasAuthority else {
            throw CommandFailure(description: "no certificate authority in \(folder.url.path) yet: `pocket serve --host 0.0.0.0` (or --https) makes one")
        }
        let authority: CertificateAuthority
        do {
            authority = try folder.existingAuthority(now: Date())
        } catch {
            throw CommandFailure(description: error.description)
        }
        if pem {
            print(try authority.pem)
            return
        }
        var lines = [
            StartupPrintout.fingerprintLine(authority),
            "  Certificate: \(folder.authorityCertificate.path)",
            "  Valid until: \(authority.certificate.notValidAfter.formatted(.iso8601.year().month().day()))",
            "  May vouch for: \(authority.scope.domains.map { $0 == "local" ? ".local" : $0 }.joined(separator: ", ")), \(authority.scope.ranges.map(\.description).joined(separator: ", "))",
        ]
        if let leaf = folder.storedLeaf() {
            lines += [
                "Current certificate (renewed by `pocket serve`), valid until \(leaf.expires.formatted(.iso8601.year().month().day())):",
                "  Names: \(leaf.names.joined(separator: ", "))",
                "  Addresses: \(leaf.addresses.joined(separator: ", "))",
            ]
        } else {
            lines.append("No current certificate yet: `pocket serve` issues one.")
        }
        print(TerminalText.safeLines(lines.joined(separator: "\n")))
    }
}
