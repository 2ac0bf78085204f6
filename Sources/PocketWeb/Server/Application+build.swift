import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL
import PocketCore
import ServiceLifecycle

/// Builds the Pocket web application from its configuration and the registered apps.
public func buildApplication(
    configuration: PocketConfiguration,
    apps: [any PocketApp],
    resources: WebResources,
    logger: Logger,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
    let renderer = try await PageRenderer(resources: resources)
    let router = buildRouter(renderer: renderer, apps: apps, isSecure: configuration.tls != nil)
    let server: HTTPServerBuilder
    if let tls = configuration.tls {
        server = try .tls(.http1(), tlsConfiguration: loadTLS(tls))
    } else {
        server = .http1()
    }
    var application = Application(
        router: router,
        server: server,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
        logger: logger
    )
    application.addServices(AppBackgroundService(apps: apps, logger: logger))
    return application
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

/// Builds the router: shared middleware, the shell's routes and each app's routes below its prefix.
public func buildRouter(renderer: PageRenderer, apps: [any PocketApp], isSecure: Bool = false) -> Router<PocketRequestContext> {
    let router = Router(context: PocketRequestContext.self, options: .autoGenerateHeadEndpoints)
    let policy = apps.reduce(ExternalSources()) { $0.merged(with: $1.externalSources) }
    // Order matters: logging sees the final status, headers land on error pages, and the
    // session token exists before an error page or a CSRF check needs it.
    router.add(middleware: AccessLogMiddleware())
    router.add(middleware: SecurityHeadersMiddleware(policy: policy))
    router.add(middleware: SessionMiddleware(isSecure: isSecure))
    router.add(middleware: ErrorPageMiddleware(renderer: renderer))
    router.add(middleware: CSRFMiddleware())

    ShellController(renderer: renderer, apps: apps.map(\.descriptor)).addRoutes(to: router)
    let environment = WebEnvironment(renderer: renderer)
    for app in apps {
        app.addRoutes(to: router.group(RouterPath(app.descriptor.href)), environment: environment)
    }
    return router
}

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
