import Conference
import Foundation
import Hummingbird
import Logging
import PocketCore

/// The Scripture Citation Index: registration, every route listed once, and the start-up update check.
public struct ConferenceApp: PocketApp {
    private let store: ConferenceLibrary
    private let updates: ConferenceUpdates
    private let texts: TalkTextArchive

    /// Builds the app on an open library. `manifestURL` is where updates are looked for; with
    /// `autoUpdate` the database the manifest offers is installed at start-up without asking.
    /// Talk texts are fetched from `talkTextBase` (see `TalkTextSource`) and kept in the library.
    public init(library: ConferenceLibrary, manifestURL: URL, talkTextBase: URL = TalkTextSource.defaultURL, autoUpdate: Bool = false,
                fetcher: any HTTPFetching = LiveHTTPFetcher(), installer: DatabaseInstaller? = nil) {
        store = library
        texts = TalkTextArchive(library: library, base: talkTextBase, fetcher: fetcher)
        updates = ConferenceUpdates(library: library, installer: installer ?? DatabaseInstaller(library: library),
                                    manifestURL: manifestURL, autoUpdate: autoUpdate, fetcher: fetcher)
    }

    public func healthProblem() async -> String? {
        await HealthCheck.problem(of: store)
    }

    public var descriptor: AppDescriptor {
        AppDescriptor(id: "conference", name: "Conference", icon: "icons/apps/conference.svg",
                      summary: "The Scripture Citation Index: general conference talks and the scriptures they cite")
    }

    /// Talk texts come from Pocket itself (stored copies) in a sandboxed frame; recordings from
    /// wherever the database points (their hosts changed over the years), only ever as audio or video.
    public var externalSources: ExternalSources {
        ExternalSources(mediaSources: ["https:", "http:"], frameSources: ["'self'"])
    }

    public func addRoutes(to group: RouterGroup<PocketRequestContext>, environment: WebEnvironment) {
        group.add(endpoints(environment: environment))
    }

    /// Every route of the app with its handler.
    func endpoints(environment: WebEnvironment) -> [Endpoint] {
        let pages = ConferencePages(store: store, updates: updates, texts: texts, renderer: environment.renderer, streams: environment.streams,
                                    caches: environment.caches)
        typealias R = ConferenceRoute
        return [
            R.conferences.handle(pages.conferences), R.conference.handle(pages.conference), R.talk.handle(pages.talk),
            R.talkText.handle(pages.talkText), R.keep.handle(pages.keep), R.bookmark.handle(pages.bookmark),
            R.bookmarkChanges.handle(pages.applyChange), R.volumes.handle(pages.volumes), R.book.handle(pages.book),
            R.chapter.handle(pages.chapter), R.verse.handle(pages.verse), R.speakers.handle(pages.speakers), R.speaker.handle(pages.speaker),
            R.search.handle(pages.search), R.settings.handle(pages.settings), R.checkForUpdate.handle(pages.checkForUpdate),
            R.install.handle(pages.install), R.importDatabase.handle(pages.importDatabase), R.events.handle(pages.events),
        ]
    }

    /// Checks the manifest once the server runs (quietly when offline), installs with `--auto-update`,
    /// then waits; at shutdown a running install is cancelled so the previous database stays whole.
    public func runInBackground(logger: Logger) async {
        await updates.startupCheck(logger: logger)
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(3600))
        }
        await updates.shutdown()
    }

    /// Waits until no install is running (for tests).
    func waitUntilIdle() async {
        await updates.waitUntilIdle()
    }
}
