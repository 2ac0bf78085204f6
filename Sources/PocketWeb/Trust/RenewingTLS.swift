import Hummingbird
import Logging
import NIOSSL
import PocketTLS
import ServiceLifecycle
import Synchronization

/// A server TLS configuration whose certificate is, for each new connection, the keeper's current
/// leaf: a renewed leaf is served without rebinding, and open connections keep the one they began with.
func renewingTLSConfiguration(keeper: LeafKeeper) throws -> TLSConfiguration {
    let material = LeafMaterial(keeper: keeper)
    let first = try material.current()
    var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: first.chain, privateKey: first.key)
    // swift-nio-ssl asks this once per TLS client hello, before the certificate is sent.
    configuration.sslContextCallback = { _, promise in
        do {
            let now = try material.current()
            var override = NIOSSLContextConfigurationOverride()
            override.certificateChain = now.chain
            override.privateKey = now.key
            promise.succeed(override)
        } catch {
            promise.fail(error)
        }
    }
    return configuration
}

/// The current leaf in swift-nio-ssl's form, converted once per leaf rather than once per connection.
private final class LeafMaterial: Sendable {
    struct Converted: Sendable {
        let serial: [UInt8]
        let chain: [NIOSSLCertificateSource]
        let key: NIOSSLPrivateKeySource
    }

    private let keeper: LeafKeeper
    private let cache = Mutex<Converted?>(nil)

    init(keeper: LeafKeeper) {
        self.keeper = keeper
    }

    func current() throws -> Converted {
        let leaf = keeper.current
        let serial = Array(leaf.certificate.serialNumber.bytes)
        if let cached = cache.withLock({ $0 }), cached.serial == serial { return cached }
        let converted = Converted(
            serial: serial,
            chain: [.certificate(try NIOSSLCertificate(bytes: try leaf.derBytes, format: .der))],
            key: .privateKey(try NIOSSLPrivateKey(bytes: Array(leaf.keyPEM.utf8), format: .pem))
        )
        cache.withLock { $0 = converted }
        return converted
    }
}

/// Runs the keeper's periodic check next to the server and stops it at graceful shutdown.
struct LeafRenewalService: Service {
    let keeper: LeafKeeper
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await keeper.keepRenewing(clock: ContinuousClock(), logger: logger)
        }
    }
}
