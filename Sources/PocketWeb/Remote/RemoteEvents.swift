import Foundation
import PocketCore
import Remote

/// Live updates: every stored press is announced here, and every open remote and Screen page hears it.
///
/// Signals carry only which device changed and its new revision; each stream reads the store afresh,
/// so two presses announced out of order can never leave a page showing the older state.
///
/// Nothing sent here carries a phone's half-typed channel: a TV remote is only told to `reload` (and
/// then renders its own phone's digit), and the Screen's patch is rendered from the shared set. A
/// first digit moves no revision, so it is never announced at all.
struct RemoteEvents: Sendable {
    /// What a page listening on `/remote/events` shows.
    enum View: String, Sendable {
        /// The TV remote: `reload` when another remote changed the TV.
        case tv
        /// The DVR remote: `reload` when the DVR changed, and its counters every second while they run.
        case dvr
        /// The Screen page: `patch` of the panel that changed, and the DVR's counters every second.
        case screen
    }

    /// One stored change.
    struct Signal: Sendable, Equatable {
        let device: RemoteDevice
        let revision: Int64
        /// The change was the volume slider, so the Screen page flashes its volume bar.
        let isVolume: Bool
    }

    let signals: Broadcaster<Signal>
    let store: RemoteDatabase
    let now: @Sendable () -> Date

    /// How often running counters are re-sent: the counters show whole seconds.
    static let tick = Duration.seconds(1)

    /// Tells every open page about a stored change.
    func publish(_ signal: Signal) async {
        await signals.publish(signal)
    }

    /// The events one page receives. `since` is the revision the page was rendered with: if the device
    /// has moved on already, the first event is a `reload`. The work stops when the browser goes away.
    func stream(view: View, since: Int64?) -> AsyncStream<ServerSentEvent> {
        let (events, continuation) = AsyncStream<ServerSentEvent>.makeStream(bufferingPolicy: .bufferingNewest(32))
        let task = Task {
            // Subscribe before reading, so nothing that happens in between is missed.
            let signals = await self.signals.subscribe()
            await run(view, since: since, signals: signals, into: continuation)
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return events
    }
}

// MARK: - Private

private extension RemoteEvents {
    static let reload = ServerSentEvent(name: "reload", data: "")

    func run(_ view: View, since: Int64?, signals: AsyncStream<Signal>, into continuation: AsyncStream<ServerSentEvent>.Continuation) async {
        do {
            for event in try await opening(view, since: since) { continuation.yield(event) }
        } catch {
            return // The store failed: end the stream; the browser's EventSource retries by itself.
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await signal in signals {
                    for event in await self.events(for: signal, view: view, since: since) { continuation.yield(event) }
                }
            }
            if view != .tv {
                group.addTask { await self.tickCounters(view, into: continuation) }
            }
            // The first child to end (signals finish at shutdown) ends the stream.
            await group.next()
            group.cancelAll()
        }
    }

    func opening(_ view: View, since: Int64?) async throws -> [ServerSentEvent] {
        switch view {
        case .tv:
            let revision = try await store.television().revision
            return since.map { $0 != revision } == true ? [Self.reload] : []
        case .dvr:
            let revision = try await store.dvr().revision
            return since.map { $0 != revision } == true ? [Self.reload] : []
        case .screen:
            // The page may be a moment old: bring both panels up to date at once.
            return [
                try await tvPatch(isVolume: false),
                try await dvrPatch(),
            ]
        }
    }

    func events(for signal: Signal, view: View, since: Int64?) async -> [ServerSentEvent] {
        switch (view, signal.device) {
        case (.tv, .tv), (.dvr, .dvr):
            return signal.revision > (since ?? Int64.min) ? [Self.reload] : []
        case (.screen, .tv):
            return [try? await tvPatch(isVolume: signal.isVolume)].compactMap { $0 }
        case (.screen, .dvr):
            return [try? await dvrPatch()].compactMap { $0 }
        case (.tv, .dvr), (.dvr, .tv):
            return []
        }
    }

    /// While the DVR plays, skims or records, its counters change every second: send them.
    func tickCounters(_ view: View, into continuation: AsyncStream<ServerSentEvent>.Continuation) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: Self.tick)
            guard !Task.isCancelled, let snapshot = try? await store.dvr(), snapshot.device.isRunning else { continue }
            let clock = RemoteClock(dvr: snapshot.dvr(at: now()), id: view == .screen ? "screen-dvr-clock" : "dvr-clock")
            continuation.yield(patch([clock.html]))
        }
    }

    func tvPatch(isVolume: Bool) async throws -> ServerSentEvent {
        // The shared set: this patch goes to every open Screen, whoever is typing.
        let snapshot = try await store.television()
        let panel = RemoteScreen.TVPanel(television: snapshot.device, notice: snapshot.notice, showsVolume: isVolume)
        return patch([panel.html])
    }

    /// The DVR's state and its counters: two elements, patched separately because only the state is
    /// in a live region (counters read out every second would drown everything else).
    func dvrPatch() async throws -> ServerSentEvent {
        let panel = RemoteScreen.DVRPanel(snapshot: try await store.dvr(), now: now())
        return patch([panel.html, panel.clock.html])
    }

    /// A `patch` event: the fragments' top-level elements replace the elements with the same ids.
    func patch(_ fragments: [HTML]) -> ServerSentEvent {
        let html = fragments.map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }.joined(separator: "\n")
        return ServerSentEvent(name: "patch", data: html)
    }
}
