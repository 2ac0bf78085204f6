import Foundation
import Hummingbird
import Remote

/// The handlers behind `RemoteApp`'s routes: decode, press or read a device, announce, render.
///
/// Every press is a POST answered with 303 See Other (the page works without JavaScript and a reload
/// never repeats a press); with JavaScript, pocket.js follows the redirect and swaps the screen in place.
struct RemotePages: Sendable {
    let store: RemoteDatabase
    let events: RemoteEvents
    let renderer: PageRenderer
    /// Bounds each person's event streams.
    let streams: OpenStreams
    let now: @Sendable () -> Date
    /// TV remote pages already rendered (and compressed), kept while the set stays as it was.
    let tvPages: PageMemo<RemoteTV.Shown>

    static let app = "remote"
    static let home = BackLink(label: "Pocket", href: ShellRoute.home.href())
    static let screenClass = "screen--remote"

    // MARK: TV

    @Sendable func root(_ request: Request, context: PocketRequestContext) async throws -> Response {
        Response.redirect(to: RemoteRoute.remoteHref(try await store.lastRemote()))
    }

    @Sendable func tv(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let deviceID = try context.requireDeviceID()
        try await remember(.tv)
        let moment = now()
        let snapshot = try await store.television(deviceID: deviceID, at: moment)
        let shown = RemoteTV.Shown(snapshot: snapshot, now: moment, flipIn: Self.arrives(request, from: .dvr))
        return renderer.page(frame: frame(RemoteDevice.tv.name), context: context, memo: tvPages, model: shown) {
            RemoteTV.View(model: RemoteTV.Model($0), pageContext: $1)
        }
    }

    @Sendable func tvPower(_ request: Request, context: PocketRequestContext) async throws -> Response {
        var request = request
        // A checked switch sends "on"; an unchecked one sends nothing, which means off.
        let fields = try await request.formFields(context: context)
        return try await pressTV(.setPower(fields["power"] == "on"), context: context)
    }

    @Sendable func tvVolume(_ request: Request, context: PocketRequestContext) async throws -> Response {
        var request = request
        let fields = try await request.formFields(context: context)
        guard let level = fields["volume"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) else {
            throw HTTPError(.badRequest, message: "Volume must be a whole number from 0 to 100.")
        }
        return try await pressTV(.setVolume(level), context: context)
    }

    @Sendable func tvDigit(_ request: Request, context: PocketRequestContext, digit: Int) async throws -> Response {
        guard (0...9).contains(digit) else {
            throw HTTPError(.notFound, message: "The keypad has the digits 0 to 9.")
        }
        return try await pressTV(.digit(digit), context: context)
    }

    @Sendable func tvChannelUp(_ request: Request, context: PocketRequestContext) async throws -> Response {
        try await pressTV(.channelUp, context: context)
    }

    @Sendable func tvChannelDown(_ request: Request, context: PocketRequestContext) async throws -> Response {
        try await pressTV(.channelDown, context: context)
    }

    @Sendable func tvFavourite(_ request: Request, context: PocketRequestContext, index: Int) async throws -> Response {
        guard (0..<Television.favouriteCount).contains(index) else {
            throw HTTPError(.notFound, message: "There are only \(Television.favouriteCount) favourites.")
        }
        return try await pressTV(.tuneFavourite(index), context: context)
    }

    // MARK: Favourites

    @Sendable func favourites(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let model = RemoteFavourites.Model(television: try await store.television().device)
        return renderFavourites(model, context: context)
    }

    /// Saves all four presets or none: an invalid one shows an alert over the form, which keeps what was typed.
    @Sendable func saveFavourites(_ request: Request, context: PocketRequestContext) async throws -> Response {
        var request = request
        let edits = RemoteFavourites.edits(from: try await request.formFields(context: context))
        if let problem = RemoteFavourites.firstProblem(in: edits) {
            let isOn = try await store.television().device.isOn
            return renderFavourites(RemoteFavourites.Model(edits: edits, isOn: isOn, problem: problem), context: context)
        }
        let change = try await applyTV(RemoteFavourites.commands(for: edits), context: context)
        // Switched off meanwhile (from another phone): nothing was saved, and the form says why.
        if change.outcome == .refusedPowerOff {
            return Response.redirect(to: RemoteRoute.favourites.href())
        }
        return Response.redirect(to: RemoteRoute.tv.href())
    }

    // MARK: Helpers

    func frame(_ title: String, back: BackLink = RemotePages.home) -> PageFrame {
        PageFrame(title: title, back: back, screenClass: Self.screenClass, app: Self.app)
    }

    /// Remembers the open remote, so `/remote` reopens it; written only when it changes.
    func remember(_ device: RemoteDevice) async throws {
        if try await store.lastRemote() != device {
            try await store.setLastRemote(device)
        }
    }

    /// Tells open pages about a stored change.
    func announce<Device, Outcome>(_ change: DeviceChange<Device, Outcome>, device: RemoteDevice, isVolume: Bool = false) async {
        guard change.isStored else { return }
        await events.publish(RemoteEvents.Signal(device: device, revision: change.snapshot.revision, isVolume: isVolume))
    }

    /// Whether the page was reached with the toolbar's switch from the other remote (the browser sends
    /// the previous page as the referrer, same-origin only): the new remote then flips in.
    static func arrives(_ request: Request, from device: RemoteDevice) -> Bool {
        guard let referrer = request.headers[.referer], let url = URL(string: referrer) else { return false }
        return url.path == RemoteRoute.remoteHref(device)
    }
}

// MARK: - Private

private extension RemotePages {
    func pressTV(_ command: TVCommand, context: PocketRequestContext) async throws -> Response {
        _ = try await applyTV([command], context: context)
        return Response.redirect(to: RemoteRoute.tv.href())
    }

    /// Presses on the phone that sent the request, so a half-typed channel stays that phone's own.
    func applyTV(_ commands: [TVCommand], context: PocketRequestContext) async throws -> TelevisionChange {
        let deviceID = try context.requireDeviceID()
        let change = try await store.apply(commands, deviceID: deviceID, at: now())
        let isVolume = commands.contains { if case .setVolume = $0 { true } else { false } }
        await announce(change, device: .tv, isVolume: isVolume)
        return change
    }

    func renderFavourites(_ model: RemoteFavourites.Model, context: PocketRequestContext) -> Response {
        let back = BackLink(label: RemoteDevice.tv.name, href: RemoteRoute.tv.href())
        return renderer.page(frame: frame("Favourites", back: back), context: context) { RemoteFavourites.View(model: model, pageContext: $0) }
    }
}
