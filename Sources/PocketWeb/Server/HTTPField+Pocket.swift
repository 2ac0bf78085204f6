import HTTPTypes

extension HTTPField.Name {
    // These literals are valid header names, so the initialiser cannot fail; the fallback keeps the code crash-free.
    static let pocketSwap = HTTPField.Name("X-Pocket-Swap") ?? .accept
    /// Sent by "Keep Offline" with each page it keeps: such a fetch is not a visit.
    static let pocketKeep = HTTPField.Name("X-Pocket-Keep") ?? .accept
    static let csrfToken = HTTPField.Name("X-CSRF-Token") ?? .accept
    static let requestID = HTTPField.Name("X-Request-ID") ?? .accept
    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site") ?? .accept
    static let secFetchMode = HTTPField.Name("Sec-Fetch-Mode") ?? .accept
    static let permissionsPolicy = HTTPField.Name("Permissions-Policy") ?? .accept
    static let crossOriginOpenerPolicy = HTTPField.Name("Cross-Origin-Opener-Policy") ?? .accept
    static let referrerPolicy = HTTPField.Name("Referrer-Policy") ?? .accept
    static let xFrameOptions = HTTPField.Name("X-Frame-Options") ?? .accept
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For") ?? .accept
    static let xForwardedProto = HTTPField.Name("X-Forwarded-Proto") ?? .accept
    static let strictTransportSecurity = HTTPField.Name("Strict-Transport-Security") ?? .accept
    static let clearSiteData = HTTPField.Name("Clear-Site-Data") ?? .accept
    static let serviceWorkerAllowed = HTTPField.Name("Service-Worker-Allowed") ?? .accept
    /// Sent with a navigation the service worker's navigation preload started: the worker is
    /// installed and answers the shell's modules from its cache (service-worker.js).
    static let serviceWorkerNavigationPreload = HTTPField.Name("Service-Worker-Navigation-Preload") ?? .accept
}
