import ArgumentParser
import Conference
import Foundation
import Logging
import PocketCore
import PocketTLS
import PocketWeb

/// `pocket serve`: runs the web server until SIGINT or SIGTERM.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve Pocket's web front end (the default command).",
        discussion: "Binds 127.0.0.1:8080 unless told otherwise. To reach Pocket from a phone on the same network, pass --host 0.0.0.0: Pocket then serves HTTPS on 8443 with its own certificate authority, and on 8080 a page that shows a phone how to trust it."
    )

    @OptionGroup var listener: ListenerOptions

    @OptionGroup var data: DataOptions

    @Option(name: .setting(Settings.sciManifest), help: ArgumentHelp(Settings.sciManifest))
    var manifestURL: String?

    @OptionGroup var secure: HTTPSOptions

    @Option(name: .setting(Settings.trustedProxy), help: ArgumentHelp(Settings.trustedProxy))
    var trustedProxy: String?

    @Flag(name: .setting(Settings.autoUpdate), help: ArgumentHelp(Settings.autoUpdate))
    var autoUpdate = false

    @Option(name: .setting(Settings.backupDirectory), help: ArgumentHelp(Settings.backupDirectory))
    var backupDirectory: String?

    @Option(name: .setting(Settings.backupTime), help: ArgumentHelp(Settings.backupTime))
    var backupTime: String?

    @Flag(name: .setting(Settings.backups), inversion: .prefixedNo, help: ArgumentHelp(Settings.backups))
    var backups: Bool?

    @Flag(name: .setting(Settings.demo), help: ArgumentHelp(Settings.demo))
    var demo = false

    func run() async throws {
        // Before any database or socket is opened: the soft limit (1,024 under systemd's default)
        // is what a few hundred idle sockets reach; the hard limit is Pocket's to use.
        FileLimit.raiseToHardLimit()
        let options = PocketConfiguration.Options(host: listener.host, port: listener.port, dataDirectory: data.dataDirectory, logLevel: data.logLevel,
                                                  tlsCertificate: listener.tlsCertificate, tlsKey: listener.tlsKey,
                                                  trustedProxy: trustedProxy, https: secure.https, httpPort: secure.httpPort, names: secure.names,
                                                  backups: backups, backupDirectory: backupDirectory, backupTime: backupTime)
        let environment = ProcessInfo.processInfo.environment
        let configuration = try PocketConfiguration.resolve(options: options, environment: environment)
        // Checked before anything is opened, so a bad address stops the server with one line.
        let sources = try PocketConfiguration.resolveAppSources(manifestURL: manifestURL, environment: environment)
        let dataDirectory = try openDataDirectory(configuration.dataDirectory)
        // Held while serving, so `pocket restore` can tell the folder is in use; the kernel drops it when the process ends.
        guard let folderLock = try DataFolderLock.forServing(dataDirectory.url) else {
            throw CommandFailure(description: "a restore is under way in \(dataDirectory.url.path): wait for it to finish, then start Pocket")
        }
        // Copies a daily backup killed part-way left beside its archive (every database, people.sqlite too).
        if let backups = configuration.backups { BackupShelf(folder: backups.directory).removeStaleStaging() }
        let conference = ConferenceOptions(manifestURL: ManifestLocation.url(configured: sources.sciManifest), autoUpdate: autoUpdate)
        for path in [configuration.tls?.certificate, configuration.tls?.key].compactMap({ $0 }) where !FileManager.default.isReadableFile(atPath: path) {
            throw ConfigurationError.unreadableFile(path: path)
        }
        let keeper = configuration.usesOwnCertificateAuthority ? try openCertificateAuthority(configuration) : nil
        bootstrapLogging(level: configuration.logLevel)
        let logger = Logger(label: "pocket")
        if !configuration.isLoopback && !configuration.isHTTPS {
            let warning = "WARNING: serving plain HTTP on \(configuration.host): passwords and sign-in cookies cross the network unencrypted, and phones will not install Pocket or share location. Leave out --no-https to use Pocket's own HTTPS, use --tls-cert/--tls-key, or a TLS reverse proxy with --trusted-proxy."
            FileHandle.standardError.write(Data((warning + "\n").utf8))
            logger.warning("\(warning)")
        }
        if let keeper, let ending = TLSError.authorityEndingWarning(keeper.authority, folder: TLSFolder(dataDirectory: dataDirectory.url).url.path, now: Date()) {
            FileHandle.standardError.write(Data(("WARNING: " + ending + "\n").utf8))
            logger.warning("\(ending)")
        }
        // Before the first store is opened, since opening one runs its migrations.
        let backupDirectory = configuration.backups?.directory ?? PocketConfiguration.defaultBackupDirectory(in: dataDirectory.url)
        _ = try await PreMigrationBackup.makeIfNeeded(dataDirectory: dataDirectory.url, backupDirectory: backupDirectory,
                                                      muralsFile: muralsDatabaseFile(demo: demo), logger: logger)
        let people = try openPeopleForServing(dataDirectory)
        let boundPort = ListenerPort(configuration.port), boundHTTPPort = ListenerPort(configuration.httpPort ?? 0)
        let trust = keeper.map { WebTrust(keeper: $0, httpsPort: { boundPort.value }, httpPort: { boundHTTPPort.value }) }
        let links: @Sendable () -> PhoneLinks = { trust?.phoneLinks ?? phoneLinks(configuration, port: boundPort.value) }
        let webPeople = WebPeople(store: people, reachableBaseURLs: { links().baseURLs }, trustedProxy: configuration.trustedProxy, trust: trust)
        // The start-up lines wait for every listener, so the links they print carry the bound ports.
        let announcement = Announcement(listeners: configuration.httpPort == nil ? 1 : 2) {
            var shown = configuration
            shown.port = boundPort.value
            logger.notice("Pocket \(PocketVersion.current) serving \(shown.baseURL) (data in \(configuration.dataDirectory.path))")
            let isEmpty = (try? await people.isEmpty()) ?? false
            let shownLinks = links(), authority = trust?.keeper.authority
            let problem = noPhoneLinkProblem(configuration, links: shownLinks, authority: authority)
            if let problem { logger.warning("\(problem)") }
            let text = StartupPrintout.text(links: shownLinks, authority: authority, setupPath: isEmpty ? webPeople.setupPath : nil, problem: problem)
            if let text {
                // Written at once (not through print's buffer), so it shows even when stdout is a file.
                FileHandle.standardOutput.write(Data((text + "\n").utf8))
            }
            SetupLinkCommand.keep(isEmpty ? text : nil, in: dataDirectory, logger: logger)
        }
        do {
            let made = try await makeApps(dataDirectory: dataDirectory, sources: sources, conference: conference, muralsDemo: demo)
            let backups = configuration.backups
            let layout = try pocketDataLayout()
            let app = try await buildApplication(
                configuration: configuration,
                apps: made.apps,
                people: webPeople,
                household: HouseholdData(personal: made.personal, backups: backups.map { BackupShelf(folder: $0.directory) },
                                         backupHealth: backups.map { _ in BackupHealth(dataDirectory: dataDirectory.url) }),
                services: backups.map { [DailyBackups(schedule: $0, dataDirectory: dataDirectory.url, layout: layout, logger: logger)] } ?? [],
                resources: try WebResources.bundled(),
                logger: logger,
                onServerRunning: { port in
                    boundPort.value = port
                    await announcement.listenerStarted()
                },
                onPlainServerRunning: { port in
                    boundHTTPPort.value = port
                    await announcement.listenerStarted()
                }
            )
            try await app.runService()
            withExtendedLifetime(folderLock) {}
        } catch {
            throw CommandFailure(description: describeStartupError(error, configuration: configuration))
        }
    }
}

/// Runs the start-up announcement once the last of the listeners is bound.
actor Announcement {
    private var waiting: Int
    private let announce: @Sendable () async -> Void

    init(listeners: Int, announce: @escaping @Sendable () async -> Void) {
        waiting = listeners
        self.announce = announce
    }

    func listenerStarted() async {
        waiting -= 1
        if waiting == 0 { await announce() }
    }
}

/// Opens `people.sqlite` for the server.
private func openPeopleForServing(_ dataDirectory: DataDirectory) throws -> PeopleDatabase {
    do {
        let people = try PeopleDatabase.onDisk(at: dataDirectory.file(PeopleDatabase.fileName))
        // Sessions and pairing codes that ran out while Pocket was off are of no use to anyone.
        try people.purgeExpiredNow()
        return people
    } catch {
        throw CommandFailure(description: "cannot open \(dataDirectory.file(PeopleDatabase.fileName).path): \(error)")
    }
}
