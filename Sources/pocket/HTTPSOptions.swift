import ArgumentParser
import Foundation
import PocketCore
import PocketTLS

/// The options `serve` and `pair` share about Pocket's own HTTPS and the names phones use.
struct HTTPSOptions: ParsableArguments {
    @Flag(name: .setting(Settings.https), inversion: .prefixedNo, help: ArgumentHelp(Settings.https))
    var https: Bool?

    @Option(name: .setting(Settings.httpPort), help: ArgumentHelp(Settings.httpPort))
    var httpPort: String?

    @Option(name: .setting(Settings.name), help: ArgumentHelp(Settings.name))
    var names: [String] = []
}

/// Opens (or, the first time, makes) the CA in the data folder and the keeper of its leaf, for
/// a server configured with `configuration`; every refusal is one line that says what to do.
func openCertificateAuthority(_ configuration: PocketConfiguration) throws -> LeafKeeper {
    let folder = TLSFolder(dataDirectory: configuration.dataDirectory)
    do throws(TLSError) {
        let authority = try folder.authority(machine: ServedNames.machineLabel() ?? "this computer", scope: .household(names: configuration.names), now: Date())
        if let outside = configuration.names.first(where: { !authority.scope.permits(name: $0) }) {
            throw .nameOutsideAuthority(name: outside, permitted: authority.scope.domains, folder: folder.url.path)
        }
        return try LeafKeeper(authority: authority, folder: folder) { [names = configuration.names, host = configuration.host] in
            ServedNames.live(configuredNames: names, bindHost: host)
        }
    } catch {
        throw CommandFailure(description: error.description)
    }
}

/// Where a server configured with `configuration` sends phones, when it does not have its own CA:
/// its names first (the machine's `.local` name only without the person's own certificate, which
/// may not cover it), then its addresses.
func phoneLinks(_ configuration: PocketConfiguration, port: Int) -> PhoneLinks {
    let served = ServedNames.live(configuredNames: configuration.names, bindHost: configuration.host, includeMachineName: configuration.tls == nil)
    return PhoneLinks(hosts: served.phoneHosts, secure: configuration.isHTTPS, port: port, trustPage: nil)
}

/// Why a server configured with `configuration` has no link a phone can open, or nil when it has
/// one (or is bound to loopback, where this machine is the only client meant).
func noPhoneLinkProblem(_ configuration: PocketConfiguration, links: PhoneLinks, authority: CertificateAuthority?) -> String? {
    guard !configuration.isLoopback, !links.reachBeyondThisMachine else { return nil }
    let wildcard = ["0.0.0.0", "::", "[::]"].contains(configuration.host)
    let machineAddresses = wildcard ? ReachableAddresses.interfaceAddresses(includeIPv6: true) : [configuration.host]
    guard let authority else {
        return "no link a phone can open: this machine has no network address beyond loopback; connect it to the home network, or give a name phones resolve to it with --name"
    }
    return authority.scope.noPhoneLinkProblem(machineAddresses: machineAddresses, bindHost: configuration.host)
}
