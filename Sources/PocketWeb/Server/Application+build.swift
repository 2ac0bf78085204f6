import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOSSL
import PocketCore
import ServiceLifecycle

/// Builds the Pocket web application from its configuration and the registered apps: the main
/// listener and, beside HTTPS, the plain-HTTP one (`configuration.httpPort`).
///
/// - Parameters:
///   - people: with `trust` set when Pocket serves HTTPS with its own certificate authority.
///   - connections: bounds every listener's connections; by default 128 per address and what the
///     open-file limit allows in all (the trusted proxy exempt from the first).
///   - onServerRunning: told the main listener's port once bound.
///   - onPlainServerRunning: told the plain-HTTP listener's port once bound.
///   - caches: for the page benchmark, which passes page caches through; Pocket keeps them all.
public func buildApplication(
    configuration: PocketConfiguration,
    apps: [any PocketApp],
    people: WebPeople,
    household: HouseholdData = HouseholdData(),
    services: [any Service] = [],
    resources: WebResources,
    logger: Logger,
    connections: ConnectionGate? = nil,
    caches: Caches = .all,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in },
    onPlainServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
    let renderer = try PageRenderer(resources: resources)
    // Beside the machine's own names, the ones Pocket's certificate covers now.
    var certificateNames: (@Sendable () -> [String])?
    if let keeper = people.trust?.keeper {
        certificateNames = { keeper.current.names }
    }
    let hosts = ServedHosts.thisMachine(bind: configuration.host, extra: configuration.names, current: certificateNames)
    let router = buildRouter(renderer: renderer, apps: apps, people: people, household: household, isTLS: configuration.isHTTPS, hosts: hosts,
                             caches: caches)
    let gate = connections ?? ConnectionGate(exempt: configuration.trustedProxy, logger: logger)
    var tls: TLSConfiguration?
    if let files = configuration.tls {
        tls = try loadTLS(files)
    } else if let trust = people.trust {
        tls = try renewingTLSConfiguration(keeper: trust.keeper)
    }
    // TLS 1.2 offers only AEAD suites with forward secrecy (no CBC); TLS 1.3's are all AEAD.
    tls?.cipherSuites = aeadCipherSuites
    let server = HTTPServerBuilder.gated(by: gate, tls: tls)
    // The plain listener's redirects name the main listener's port, known only once bound (`--port 0`).
    let mainPort = ListenerPort(configuration.port)
    var application = Application(
        router: router,
        server: server,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil, backlog: acceptBacklog),
        onServerRunning: { channel in
            mainPort.value = channel.localAddress?.port ?? configuration.port
            await onServerRunning(mainPort.value)
        },
        logger: logger
    )
    application.addServices(AppBackgroundService(apps: apps, logger: logger))
    application.addServices(services)
    if let httpPort = configuration.httpPort {
        let plain = Application(
            router: buildPlainRouter(renderer: renderer, trust: people.trust, hosts: hosts, httpsPort: { mainPort.value }),
            server: .gated(by: gate, tls: nil),
            configuration: .init(address: .hostname(configuration.host, port: httpPort), serverName: nil, backlog: acceptBacklog),
            onServerRunning: { channel in await onPlainServerRunning(channel.localAddress?.port ?? httpPort) },
            logger: logger
        )
        application.addServices(plain)
    }
    if let trust = people.trust {
        application.addServices(LeafRenewalService(keeper: trust.keeper, logger: logger))
    }
    return application
}

/// Connections the kernel holds for Pocket to accept. Hummingbird's 256 filled while a flood's
/// refused connections came straight back, and a phone's new connection then waited a second or
/// more for its SYN to be sent again; the kernel caps this at `net.core.somaxconn` (4,096 by default).
let acceptBacklog = 4096

/// How long a connection may go without sending a complete request part before it is closed.
public let connectionIdleLimit: Duration = .seconds(20)

extension HTTPServerBuilder {
    /// HTTP/1.1, or over TLS when `tls` is given HTTP/2 or HTTP/1.1 as ALPN chooses, each
    /// connection admitted by `gate` first.
    static func gated(by gate: ConnectionGate, tls: TLSConfiguration?) -> HTTPServerBuilder {
        // A connection (or an HTTP/2 stream) is closed when it sends no complete request part for
        // this long: that ends both idle keep-alive connections and clients dribbling headers a byte
        // at a time (slowloris). Streams being answered (Server-Sent Events, downloads) are not idle.
        let http1 = HTTP1Channel.Configuration(idleTimeout: .seconds(Int64(connectionIdleLimit.components.seconds)))
        return HTTPServerBuilder { responder in
            guard let tls else { return GatedChannel(base: HTTP1Channel(responder: responder, configuration: http1), gate: gate) }
            // Each HTTP/2 stream counts itself on its connection's limits.
            var streams = http1
            streams.additionalChannelHandlers = { [HTTP2StreamCount()] }
            return GatedChannel(base: try NegotiatedHTTPChannel(responder: responder, tls: tls, http1: streams, gate: gate), gate: gate)
        }
    }
}

/// Runs every app's background work next to the server and cancels it at graceful shutdown.
struct AppBackgroundService: Service {
    let apps: [any PocketApp]
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                for app in apps {
                    group.addTask { await app.runInBackground(logger: logger) }
                }
            }
        }
        // Stay up until shutdown so the service group does not read an early return as a failure.
        try? await gracefulShutdown()
    }
}

/// Builds the router: shared middleware, the public routes (sign-in, setup, pairing, static
/// files) and, behind the sign-in guard, the shell's and each app's routes below its prefix.
/// `changeRate` bounds how fast each person's outbox changes are taken.
/// Requests for a name Pocket does not serve (`hosts`) are refused. Tests pass their own
/// `router` to put a middleware in front; the page benchmark passes `caches` through.
public func buildRouter(
    renderer: PageRenderer, apps: [any PocketApp], people: WebPeople, household: HouseholdData = HouseholdData(), isTLS: Bool = false, hosts: ServedHosts = .any,
    changeRate: ChangeRate = ChangeRate(), caches: Caches = .all,
    router: Router<PocketRequestContext> = Router(context: PocketRequestContext.self, options: .autoGenerateHeadEndpoints)
) -> Router<PocketRequestContext> {
    let policy = apps.reduce(ExternalSources(scriptHashes: [renderer.importMap.cspSource], styleHashes: renderer.inlineStyles.cspSources)) { $0.merged(with: $1.externalSources) }
    // Order matters: logging sees the final status; the client's address and scheme are known
    // before headers and cookies depend on them; the session is loaded before the error page or
    // the CSRF check needs its token.
    router.add(middleware: AccessLogMiddleware())
    router.add(middleware: CompressionMiddleware())
    router.add(middleware: ClientMiddleware(isTLS: isTLS, trustedProxy: people.trustedProxy))
    router.add(middleware: HostCheckMiddleware(hosts: hosts, trustedProxy: people.trustedProxy))
    router.add(middleware: SecurityHeadersMiddleware(policy: policy, strictTransportSecurity: people.trust == nil))
    router.add(middleware: SessionCookieHardening())
    router.add(middleware: people.sessionMiddleware())
    router.add(middleware: AnonymousTokenMiddleware())
    router.add(middleware: people.authenticator())
    router.add(middleware: DeviceUpkeepMiddleware(people: people.store))
    router.add(middleware: ErrorPageMiddleware(renderer: renderer))
    router.add(middleware: SetupGate(people: people.store, setupPath: people.setupPath, renderer: renderer))
    router.add(middleware: CSRFMiddleware())
    router.add(middleware: ChangeRateMiddleware(rate: changeRate))

    let store = people.store
    // One check of every database at a time, however many monitors (or strangers) ask at once.
    let health = FreshCheck<[HealthProblem]> {
        var problems: [HealthProblem] = []
        if let problem = await HealthCheck.problem(of: store) { problems.append(HealthProblem(store: "people", problem: problem)) }
        // A failing daily backup is the owner's to hear of before the day the backup is needed.
        if let problem = household.backupHealth?.summary() { problems.append(HealthProblem(store: "backup", problem: problem)) }
        for app in apps {
            if let problem = await app.healthProblem() { problems.append(HealthProblem(store: app.descriptor.id, problem: problem)) }
        }
        return problems
    }
    let streams = OpenStreams(people: store)
    let worker = ServiceWorker.script(body: renderer.serviceWorkerBody, model: ServiceWorker.Model(assets: renderer.assets, tileTemplates: policy.tileTemplates))
    let shell = ShellPages(renderer: renderer, apps: apps.map(\.descriptor), serviceWorkerScript: ByteBuffer(string: worker), streams: streams,
                           homePages: PageMemo(caches)) { await health.value() }
    router.add(shell.publicEndpoints)
    let peoplePages = PeoplePages(renderer: renderer, people: people, household: household)
    router.add(peoplePages.publicEndpoints)

    let signedIn = router.group().add(middleware: RequireSignIn(renderer: renderer, requests: people.requests))
    signedIn.add(shell.privateEndpoints)
    signedIn.add(peoplePages.privateEndpoints + HouseholdDataPages(people: people, household: household).privateEndpoints)
    signedIn.add(WelcomePages(renderer: renderer).privateEndpoints)
    let environment = WebEnvironment(renderer: renderer, streams: streams, caches: caches)
    for app in apps {
        app.addRoutes(to: signedIn.group(RouterPath(app.descriptor.href)), environment: environment)
    }
    return router
}

/// The TLS 1.2 suites offered: ECDHE with AES-GCM or ChaCha20-Poly1305, for ECDSA and RSA keys.
let aeadCipherSuites = [
    "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256",
    "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-RSA-AES256-GCM-SHA384",
    "ECDHE-ECDSA-CHACHA20-POLY1305", "ECDHE-RSA-CHACHA20-POLY1305",
].joined(separator: ":")

/// Reads a PEM certificate chain and key into a server TLS configuration.
func loadTLS(_ files: PocketConfiguration.TLSFiles) throws -> TLSConfiguration {
    do {
        let chain = try NIOSSLCertificate.fromPEMFile(files.certificate)
        guard !chain.isEmpty else { throw WebError.tlsUnusable("\(files.certificate) holds no certificate") }
        let key = try NIOSSLPrivateKey(file: files.key, format: .pem)
        return TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
    } catch let error as WebError {
        throw error
    } catch {
        throw WebError.tlsUnusable("\(files.certificate) / \(files.key): \(error)")
    }
}

/// A one-line explanation of a failure to start serving, for the command line.
public func describeStartupError(_ error: any Error, configuration: PocketConfiguration) -> String {
    if let error = error as? IOError {
        switch error.errnoCode {
        case EADDRINUSE:
            // The error does not say which listener failed; with two, name both.
            if let httpPort = configuration.httpPort {
                return "port \(configuration.port) or \(httpPort) on \(configuration.host) is already in use: stop the other server or choose another --port or --http-port"
            }
            return "port \(configuration.port) on \(configuration.host) is already in use: stop the other server or choose another --port"
        case EADDRNOTAVAIL:
            return "cannot bind \(configuration.host): it is not an address of this machine"
        case EACCES:
            return "not allowed to bind port \(configuration.port) on \(configuration.host): ports below 1024 need privileges"
        default:
            return "cannot start the server on \(configuration.host):\(configuration.port): \(error.description)"
        }
    }
    if let error = error as? WebError { return error.description }
    if let error = error as? ConfigurationError { return error.description }
    return "cannot start the server: \(error)"
}
