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
        let pages = ConferencePages(store: store, updates: updates, texts: texts, renderer: environment.renderer, streams: environment.streams)
        group.get(ConferenceRoute.Path.conferences.pattern, use: pages.conferences)
        group.get(ConferenceRoute.Path.conference.pattern, use: pages.conference)
        group.get(ConferenceRoute.Path.talk.pattern, use: pages.talk)
        group.get(ConferenceRoute.Path.talkText.pattern, use: pages.talkText)
        group.get(ConferenceRoute.Path.keep.pattern, use: pages.keep)
        group.post(ConferenceRoute.Path.bookmark.pattern, use: pages.bookmark)
        group.post(ConferenceRoute.Path.bookmarkChanges.pattern, use: pages.applyChange)
        group.get(ConferenceRoute.Path.volumes.pattern, use: pages.volumes)
        group.get(ConferenceRoute.Path.book.pattern, use: pages.book)
        group.get(ConferenceRoute.Path.chapter.pattern, use: pages.chapter)
        group.get(ConferenceRoute.Path.verse.pattern, use: pages.verse)
        group.get(ConferenceRoute.Path.speakers.pattern, use: pages.speakers)
        group.get(ConferenceRoute.Path.speaker.pattern, use: pages.speaker)
        group.get(ConferenceRoute.Path.search.pattern, use: pages.search)
        group.get(ConferenceRoute.Path.settings.pattern, use: pages.settings)
        group.post(ConferenceRoute.Path.checkForUpdate.pattern, use: pages.checkForUpdate)
        group.post(ConferenceRoute.Path.install.pattern, use: pages.install)
        group.post(ConferenceRoute.Path.importDatabase.pattern, use: pages.importDatabase)
        group.get(ConferenceRoute.Path.events.pattern, use: pages.events)
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
