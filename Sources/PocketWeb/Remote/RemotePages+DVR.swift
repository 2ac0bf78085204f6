import Foundation
import Hummingbird
import Remote

// The DVR remote, the Screen page, the reset and the event stream.
extension RemotePages {
    // MARK: DVR

    /// The DVR remote. `?confirm=<button>` adds the action sheet of a refused press and
    /// `?forced=<button>&from=<state>` the alert after forcing one: both are plain pages, so they
    /// work without JavaScript, and pocket.js shows them in place after the POST's redirect.
    @Sendable func dvr(_ request: Request, context: PocketRequestContext) async throws -> Response {
        try await remember(.dvr)
        let query = request.queryFields
        let confirm = query["confirm"].flatMap(DVRButton.init(slug:))
        var forced: Refusal?
        if let button = query["forced"].flatMap(DVRButton.init(slug:)), let from = query["from"].flatMap(DVRState.init(rawValue:)) {
            forced = DVR.refusal(of: button, from: from)
        }
        let moment = now()
        let snapshot = try await store.dvr()
        // An alert about a force that another phone has since overtaken would tell a stale story.
        if let refusal = forced, snapshot.dvr(at: moment).state != refusal.to || !snapshot.device.isOn {
            forced = nil
        }
        let model = RemoteDVR.Model(snapshot: snapshot, now: moment, confirm: confirm, forced: forced, flipIn: Self.arrives(request, from: .tv))
        return renderer.page(frame: frame(RemoteDevice.dvr.name), context: context) { RemoteDVR.View(model: model, pageContext: $0) }
    }

    @Sendable func dvrPower(_ request: Request, context: PocketRequestContext) async throws -> Response {
        var request = request
        let fields = try await request.formFields(context: context)
        let change = try await store.setDVRPower(fields["power"] == "on", at: now())
        await announce(change, device: .dvr)
        return Response.redirect(to: RemoteRoute.dvr.href())
    }

    /// A transport button: done, or refused with a redirect to the action sheet that explains why.
    @Sendable func dvrPress(_ request: Request, context: PocketRequestContext, button: DVRButton) async throws -> Response {
        let change = try await store.press(button, at: now())
        await announce(change, device: .dvr)
        if case .needsConfirmation = change.outcome {
            return Response.redirect(to: RemoteRoute.confirmHref(button))
        }
        return Response.redirect(to: RemoteRoute.dvr.href())
    }

    /// The action sheet's Force: stops the current operation, enters the requested state, then the alert.
    @Sendable func dvrForce(_ request: Request, context: PocketRequestContext, button: DVRButton) async throws -> Response {
        let change = try await store.force(button, at: now())
        await announce(change, device: .dvr)
        if case .forced(let refusal) = change.outcome {
            return Response.redirect(to: RemoteRoute.forcedHref(refusal))
        }
        // Nothing needed forcing any more (the state changed meanwhile): the press simply happened, or not.
        return Response.redirect(to: RemoteRoute.dvr.href())
    }

    // MARK: Screen

    @Sendable func screen(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let television = try await store.television()
        let model = RemoteScreen.Model(
            tv: RemoteScreen.TVPanel(television: television.device, notice: television.notice, showsVolume: false),
            dvr: RemoteScreen.DVRPanel(snapshot: try await store.dvr(), now: now())
        )
        let back = try await lastRemoteLink()
        return renderer.page(frame: frame("Screen", back: back), context: context) { RemoteScreen.View(model: model, pageContext: $0) }
    }

    /// The reset's question as a page of its own, for browsers without JavaScript.
    @Sendable func confirmReset(_ request: Request, context: PocketRequestContext) async throws -> Response {
        try renderer.confirmationPage(RemoteScreen.resetConfirmation, back: BackLink(label: "Screen", href: RemoteRoute.screen.href()), app: Self.app, context: context)
    }

    @Sendable func reset(_ request: Request, context: PocketRequestContext) async throws -> Response {
        try await store.reset(at: now())
        await events.publish(RemoteEvents.Signal(device: .tv, revision: try await store.television().revision, isVolume: false))
        await events.publish(RemoteEvents.Signal(device: .dvr, revision: try await store.dvr().revision, isVolume: false))
        return Response.redirect(to: RemoteRoute.screen.href())
    }

    // MARK: Live updates

    /// Server-Sent Events for one page: `?view=tv|dvr|screen`, and `since=<revision>` for the remotes.
    @Sendable func events(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let query = request.queryFields
        guard let view = query["view"].flatMap(RemoteEvents.View.init(rawValue:)) else {
            throw HTTPError(.badRequest, message: "Say which page is listening: view=tv, dvr or screen.")
        }
        let since = query["since"].flatMap { Int64($0) }
        return EventStream.response(events: events.stream(view: view, since: since), owner: streams.owner(context))
    }
}

// MARK: - Private

private extension RemotePages {
    func lastRemoteLink() async throws -> BackLink {
        let device = try await store.lastRemote()
        return BackLink(label: device.name, href: RemoteRoute.remoteHref(device))
    }
}
