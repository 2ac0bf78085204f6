import Foundation
import HummingbirdAuth
import Logging
import PocketCore

/// Everything the web layer needs for people: the store, the throttle, the one-time setup
/// token of a Pocket nobody has set up, and how to reach this server from a phone.
public struct WebPeople: Sendable {
    /// The people store (`people.sqlite`).
    public let store: PeopleDatabase
    /// Failed sign-ins and pairing attempts, per client address and per name.
    public let throttle: AttemptThrottle
    /// The setup link's token while no one exists; it stops working once the owner is set up.
    public let setupToken: String
    /// Base URLs a phone could use (`https://192.168.1.20:8080`), for pairing links when the
    /// browser asking reached Pocket through loopback.
    public let reachableBaseURLs: @Sendable () -> [String]
    /// The reverse proxy whose `X-Forwarded-For`/`-Proto` headers are believed, if any.
    public let trustedProxy: String?
    /// Pocket's own certificate authority, when it serves HTTPS with it: pairing links then go
    /// through the trust page, and Settings shows the certificate.
    public let trust: WebTrust?
    /// Each person's requests in a handler, which a removal waits for before deleting their data.
    public let requests = PersonRequests()
    /// How long a signed-in device stays signed in without being used.
    public static let deviceLifetime: Duration = .seconds(365 * 24 * 60 * 60)
    /// What stored sessions' keys start with in `people.sqlite` (before the cookie's random id).
    public static let sessionKeyPrefix = "device."
    /// The session cookie's name.
    public static let cookieName = "pocket_session"

    /// Creates the people dependencies.
    public init(store: PeopleDatabase, throttle: AttemptThrottle = AttemptThrottle(), setupToken: String = RandomToken.make(),
                reachableBaseURLs: @escaping @Sendable () -> [String] = { [] }, trustedProxy: String? = nil, trust: WebTrust? = nil) {
        self.store = store
        self.throttle = throttle
        self.setupToken = setupToken
        self.reachableBaseURLs = reachableBaseURLs
        self.trustedProxy = trustedProxy
        self.trust = trust
    }

    /// The path of the one-time setup link.
    public var setupPath: String { PeopleRoute.setup.href(setupToken) }

    /// hummingbird-auth's session middleware over `people.sqlite`: a year-long cookie.
    func sessionMiddleware() -> SessionMiddleware<PocketRequestContext> {
        SessionMiddleware(
            storage: PeoplePersistDriver(people: store),
            configuration: .init(
                sessionCookieParameters: .init(name: Self.cookieName, path: "/", secure: false, sameSite: .lax),
                keyPrefix: Self.sessionKeyPrefix,
                defaultSessionExpiration: Self.deviceLifetime
            )
        )
    }

    /// hummingbird-auth's session authenticator: the stored session's device, if still signed in.
    func authenticator() -> SessionAuthenticator<PocketRequestContext, UserSessionClosureRepository<DeviceSession, SignedIn>> {
        let store = self.store
        return SessionAuthenticator(context: PocketRequestContext.self) { (session: DeviceSession, _) in
            guard let found = try await store.signedIn(deviceID: session.deviceID) else { return nil }
            return SignedIn(person: found.person, device: found.device)
        }
    }
}
