import Foundation
import Hummingbird
import PocketCore

/// After hummingbird-auth's authenticator: a signed-in device's forms carry its own token, its
/// last-seen time moves, and its session is renewed for another year once a day of use.
struct DeviceUpkeepMiddleware: RouterMiddleware {
    typealias Context = PocketRequestContext

    let people: PeopleDatabase

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let identity = context.identity else { return try await next(request, context) }
        var context = context
        context.csrfToken = identity.device.csrfToken
        let now = Date()
        // The device row was just read: write only when "last seen" is a minute old, not every request.
        if now.timeIntervalSince(identity.device.lastSeen) >= 60 {
            try await people.touch(deviceID: identity.device.id, at: now)
        }
        context.sessions.withLockedSession { session in
            let remaining = session?.expiresIn ?? .zero
            if remaining < WebPeople.deviceLifetime - .seconds(24 * 60 * 60) {
                session?.expiresIn = WebPeople.deviceLifetime
            }
        }
        return try await next(request, context)
    }
}
