import ArgumentParser
import Foundation
import PocketCore
import PocketTLS

/// The options `serve` and `pair` share about Pocket's own HTTPS and the names phones use.
struct HTTPSOptions: ParsableArguments {
    @Flag(inversion: .prefixedNo, help: ArgumentHelp("Serve HTTPS with Pocket's own certificate authority (env POCKET_HTTPS=1/0). On by default when --host is beyond loopback and no --tls-cert is given; --no-https turns it off (behind a TLS proxy)."))
    var https: Bool?

    @Option(name: .customLong("http-port"), help: ArgumentHelp("Plain-HTTP port for the trust page, the certificate downloads and redirects to HTTPS (env POCKET_HTTP_PORT; default 8080 with Pocket's own HTTPS, none otherwise).", valueName: "port"))
    var httpPort: String?

    @Option(name: .customLong("name"), help: ArgumentHelp("A name phones reach Pocket by, used in links before any address; repeat for more (env POCKET_NAME, comma-separated; default <hostname>.local where it resolves).", valueName: "host"))
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
