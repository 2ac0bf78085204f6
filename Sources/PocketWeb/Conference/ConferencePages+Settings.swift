import Conference
import Foundation
import Hummingbird

/// Settings: the database in use, the update check, installs with live progress, and imports.
extension ConferencePages {
    @Sendable func settings(_ request: Request, context: PocketRequestContext) async throws -> Response {
        try await settingsPage(context: context)
    }

    /// POST: fetch the manifest now, then show what it says.
    @Sendable func checkForUpdate(_ request: Request, context: PocketRequestContext) async throws -> Response {
        _ = try context.requireOwner(toDo: Self.ownerAction)
        await updates.check()
        return Response.redirect(to: ConferenceRoute.settings.href())
    }

    /// POST: download and install the database the manifest names (joining an install already running).
    @Sendable func install(_ request: Request, context: PocketRequestContext) async throws -> Response {
        _ = try context.requireOwner(toDo: Self.ownerAction)
        await updates.startDownload()
        return Response.redirect(to: ConferenceRoute.settings.href())
    }

    /// POST multipart: stream the uploaded file to disk, then import it like `pocket conference import`.
    @Sendable func importDatabase(_ request: Request, context: PocketRequestContext) async throws -> Response {
        // Before the body is read: a stranger's upload must not reach the disk.
        _ = try context.requireOwner(toDo: Self.ownerAction)
        guard let boundary = MultipartFileUpload.boundary(contentType: request.headers[.contentType]) else {
            return try await settingsPage(context: context, problem: MultipartFileUpload.Failure.notMultipart.description, status: .badRequest)
        }
        let limit = ConferenceUpdates.uploadLimit
        if let length = request.headers[.contentLength].flatMap({ Int64($0) }), length > limit + 64 * 1024 {
            return try await settingsPage(context: context, problem: MultipartFileUpload.Failure.tooLarge(limit: limit).description, status: .contentTooLarge)
        }
        if await updates.isRunning {
            return try await settingsPage(context: context, problem: "An install is running; import the file when it has finished.", status: .conflict)
        }
        let folder = updates.uploadsFolder.appendingPathComponent(UUID().uuidString, isDirectory: true)
        let saved: MultipartFileUpload.Saved
        do {
            saved = try await MultipartFileUpload(field: "database", boundary: boundary, limit: limit).save(request.body, into: folder)
        } catch let failure as MultipartFileUpload.Failure {
            try? FileManager.default.removeItem(at: folder)
            let status: HTTPResponse.Status = if case .tooLarge = failure { .contentTooLarge } else { .badRequest }
            return try await settingsPage(context: context, problem: failure.description, status: status)
        }
        do {
            try await updates.startImport(saved.file, name: saved.fileName)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            return try await settingsPage(context: context, problem: "An install is running; import the file when it has finished.", status: .conflict)
        }
        return Response.redirect(to: ConferenceRoute.settings.href())
    }

    /// The live install panel over Server-Sent Events: a `patch` for every progress value, and a
    /// `reload` when an install ends, so the page shows the new database (or the failure). `since` is
    /// the install count the page was rendered at: if one has ended since, the first event is a `reload`.
    @Sendable func events(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let since = request.queryFields["since"].flatMap { Int($0) }
        let (events, continuation) = AsyncStream<ServerSentEvent>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let updates = updates
        let task = Task {
            // Subscribe before reading the current state, so nothing in between is missed.
            let progress = await updates.installer.progress.subscribe()
            let finished = await updates.finished.subscribe()
            let snapshot = await updates.snapshot()
            if let since, since != snapshot.revision {
                continuation.yield(ServerSentEvent(name: "reload", data: ""))
            }
            continuation.yield(Self.panelEvent(InstallPanel(job: snapshot.job, progress: snapshot.progress, outcome: snapshot.outcome)))
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await value in progress {
                        let current = await updates.snapshot()
                        let panel = InstallPanel(job: current.job ?? (value.phase.isFinished ? nil : .download), progress: value, outcome: current.outcome)
                        continuation.yield(Self.panelEvent(panel))
                    }
                }
                group.addTask {
                    for await _ in finished { continuation.yield(ServerSentEvent(name: "reload", data: "")) }
                }
                await group.next()
                group.cancelAll()
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return EventStream.response(events: events, owner: streams.owner(context))
    }

    // MARK: Helpers

    /// What only owners may do, as `requireOwner`'s refusal names it.
    static let ownerAction = "install or import a database"

    private func settingsPage(context: PocketRequestContext, problem: String? = nil, status: HTTPResponse.Status = .ok) async throws -> Response {
        let databaseStatus = try await store.status()
        let snapshot = await updates.snapshot()
        // The controls shown are exactly those `requireOwner` would let through.
        let isOwner = (try? context.requireOwner(toDo: Self.ownerAction)) != nil
        let model = ConferenceSettings(shell: ConferenceShell(section: .settings, isSample: databaseStatus.source.isSample, offer: snapshot.offer,
                                                                      unreachable: snapshot.checkProblem != nil, checking: snapshot.checkEvents),
                                       status: databaseStatus, updates: snapshot, csrfToken: context.csrfToken, isOwner: isOwner,
                                       requestProblem: problem)
        return renderer.page(frame: frame("Settings", back: BackLink(label: "Pocket", href: ShellRoute.home.href()), largeTitle: true), context: context,
                             status: status) { ConferenceSettings.View(model: model, pageContext: $0) }
    }

    /// The `patch` event that replaces the page's install panel with `panel`.
    static func panelEvent(_ panel: InstallPanel) -> ServerSentEvent {
        ServerSentEvent(name: "patch", data: panel.html.text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

}
