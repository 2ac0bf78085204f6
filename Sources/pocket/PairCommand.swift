import ArgumentParser
import Foundation
import PocketCore

/// `pocket pair NAME`: a QR code that signs a phone in as NAME, for the running server.
struct PairCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pair",
        abstract: "Print a QR code and a short code that sign a phone in as NAME (valid 5 minutes, once).",
        discussion: "Give the same --host, --port, --tls-cert and --data-dir as the running `pocket serve` (or the same POCKET_* variables), so the printed addresses are the server's."
    )

    @Argument(help: "Whose phone it is.") var name: String
    @Option(help: ArgumentHelp("The address `pocket serve` binds (env POCKET_HOST; default 127.0.0.1).", valueName: "address")) var host: String?
    @Option(help: ArgumentHelp("The port `pocket serve` binds (env POCKET_PORT; default 8080).", valueName: "port")) var port: String?
    @Option(name: .customLong("tls-cert"), help: ArgumentHelp("The server's certificate (env POCKET_TLS_CERT): links use https.", valueName: "file")) var tlsCertificate: String?
    @Option(name: .customLong("tls-key"), help: ArgumentHelp("The server's key (env POCKET_TLS_KEY).", valueName: "file")) var tlsKey: String?
    @OptionGroup var data: DataOptions

    func run() async throws {
        let options = PocketConfiguration.Options(host: host, port: port, dataDirectory: data.dataDirectory, logLevel: data.logLevel, tlsCertificate: tlsCertificate, tlsKey: tlsKey)
        let configuration = try PocketConfiguration.resolve(options: options, environment: ProcessInfo.processInfo.environment)
        let store = try openPeople(data)
        guard let person = try await store.person(named: name) else {
            throw CommandFailure(description: PeopleError.unknownPerson(TerminalText.safe(name)).description)
        }
        let code = try await store.makePairingCode(for: person.id)
        let bases = ReachableAddresses.baseURLs(host: configuration.host, port: configuration.port, secure: configuration.tls != nil)
        let links = bases.map { "\($0)/join/\(code.linkCode)" }
        print(PairingPrintout.text(title: "Scan on \(TerminalText.safe(person.name))’s phone:", links: links))
        print("Or open \(bases[0])/join on the phone and type \(code.displayedShortCode).")
        print("Valid until \(code.expiresAt.formatted(date: .omitted, time: .shortened)), once.")
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
