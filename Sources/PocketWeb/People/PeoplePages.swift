import Foundation
import Hummingbird
import PocketCore

/// Signing in and out, the one-time setup, pairing a phone, and Settings (devices, password,
/// and for owners the household). Every route is listed once in `publicEndpoints`/`privateEndpoints`.
struct PeoplePages: Sendable {
    let renderer: PageRenderer
    let people: WebPeople
    /// Exports, imports and backups, for the Settings page's data section.
    let household: HouseholdData

    /// What a stranger may use: sign-in, setup and pairing.
    var publicEndpoints: [Endpoint] {
        typealias R = PeopleRoute
        return [
            R.signInPage.handle(signInPage), R.signIn.handle(signIn), R.setupPage.handle(setupPage), R.setup.handle(setup),
            R.joinPage.handle(joinPage), R.join.handle(joinWithShortCode), R.joinLinkPage.handle(joinLinkPage), R.joinLink.handle(joinWithLink),
        ]
    }

    /// What needs a signed-in person.
    var privateEndpoints: [Endpoint] {
        typealias R = PeopleRoute
        return [
            R.signOut.handle(signOut), R.settings.handle(settings), R.pair.handle(pair), R.signOutDevice.handle(signOutDevice),
            R.addPerson.handle(addPerson), R.confirmRemovePerson.handle(confirmRemovePerson), R.removePerson.handle(removePerson),
            R.changePassword.handle(changePassword),
        ]
    }

    // MARK: Signing in

    @Sendable func signInPage(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let next = SignInPage.safeNext(request.queryFields["next"])
        if context.identity != nil { return Response.redirect(to: next) }
        return try signInForm(next: next, name: "", problem: nil, status: .ok, context: context)
    }

    @Sendable func signIn(_ request: Request, context: PocketRequestContext) async throws -> Response {
        var request = request
        let fields = try await request.formFields(context: context)
        let name = String((fields["name"] ?? "").prefix(200)), password = fields["password"] ?? ""
        let next = SignInPage.safeNext(fields["next"])
        // Keyed on the address, and on the name at that address: wrong passwords from one address
        // slow that address down, never the right password from another (a lock-out for anyone).
        let keys = ["signin-address:\(context.clientAddress)", "signin-name:\(name.lowercased())@\(context.clientAddress)"]
        if let wait = await people.throttle.reserve(keys) {
            context.logger.warning("sign-in refused (throttled, \(wait) s) for name \(name.debugDescription) from \(context.clientAddress)")
            var response = try signInForm(next: next, name: name, problem: "Too many failed sign-ins: wait \(wait) seconds, then try again.", status: .tooManyRequests, context: context)
            response.headers[.retryAfter] = String(wait)
            return response
        }
        guard let person = try await people.store.verify(name: name, password: password) else {
            context.logger.warning("sign-in failed for name \(name.debugDescription) from \(context.clientAddress)")
            return try signInForm(next: next, name: name, problem: "That name and password do not match.", status: .unauthorized, context: context)
        }
        await people.throttle.recordSuccess(keys)
        try await signInThisDevice(as: person, request: request, context: context)
        return Response.redirect(to: next)
    }

    @Sendable func signOut(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let identity = try requireIdentity(context)
        try await people.store.removeDevice(id: identity.device.id, of: identity.person.id)
        context.sessions.clearSession()
        return Self.signedOutResponse()
    }

    // MARK: Setup

    @Sendable func setupPage(_ request: Request, context: PocketRequestContext, token: String) async throws -> Response {
        try await requireSetupToken(token)
        return renderer.page(frame: PageFrame(title: "Set Up Pocket"), context: context) { SetupPage.View(model: SetupPage.Model(action: people.setupPath, name: "", problem: nil), pageContext: $0) }
    }

    @Sendable func setup(_ request: Request, context: PocketRequestContext, token: String) async throws -> Response {
        try await requireSetupToken(token)
        var request = request
        let fields = try await request.formFields(context: context)
        let name = fields["name"] ?? "", password = fields["password"] ?? ""
        func again(_ problem: String) throws -> Response {
            renderer.page(frame: PageFrame(title: "Set Up Pocket"), context: context, status: .badRequest) { SetupPage.View(model: SetupPage.Model(action: people.setupPath, name: name, problem: problem), pageContext: $0) }
        }
        guard password == fields["confirm"] else { return try again("The two passwords are not the same.") }
        let person: Person
        do {
            person = try await people.store.addPerson(name: name, password: password, isOwner: true, onlyIfFirst: true)
        } catch PeopleError.alreadySetUp {
            throw HTTPError(.notFound, message: "That setup link has been used or is not this Pocket’s. Sign in instead.")
        } catch let error as PeopleError {
            return try again(error.description)
        }
        context.logger.notice("set up: \(person.name.debugDescription) is the owner")
        try await signInThisDevice(as: person, request: request, context: context)
        // The owner's phone gets the same Home Screen guidance a paired phone does.
        return Response.redirect(to: TrustRoute.welcome.href())
    }

    // MARK: Pairing, on the phone

    @Sendable func joinPage(_ request: Request, context: PocketRequestContext) async throws -> Response {
        try joinForm(problem: nil, status: .ok, context: context)
    }

    @Sendable func joinWithShortCode(_ request: Request, context: PocketRequestContext) async throws -> Response {
        var request = request
        let code = try await request.formFields(context: context)["code"] ?? ""
        return try await join(code: code, request: request, context: context) { problem, status in
            try joinForm(problem: problem, status: status, context: context)
        }
    }

    /// The page a pairing link opens: "Continue as bea". Only a link's long code is looked up
    /// here (a short code is typed at `/join`), and every look-up counts against the address's
    /// pairing attempts like a redeemed code, so this page cannot be used to guess codes.
    @Sendable func joinLinkPage(_ request: Request, context: PocketRequestContext, code: String) async throws -> Response {
        let keys = Self.joinKeys(context)
        if let wait = await people.throttle.reserve(keys) {
            context.logger.warning("pairing refused (throttled, \(wait) s) from \(context.clientAddress)")
            var response = try joinLinkForm(code: "", personName: nil, problem: "Too many wrong codes: wait \(wait) seconds, then try again.", status: .tooManyRequests, context: context)
            response.headers[.retryAfter] = String(wait)
            return response
        }
        guard RandomToken.isWellFormed(code), let person = try await people.store.pairingPerson(code: code) else {
            context.logger.warning("pairing link not valid, from \(context.clientAddress)")
            return try joinLinkForm(code: "", personName: nil, problem: PeopleError.pairingCodeInvalid.description, status: .notFound, context: context)
        }
        await people.throttle.recordSuccess(keys)
        return try joinLinkForm(code: code, personName: person.name, problem: nil, status: .ok, context: context)
    }

    @Sendable func joinWithLink(_ request: Request, context: PocketRequestContext, code: String) async throws -> Response {
        // A link carries the long code only: a short one is typed at /join.
        let linkCode = RandomToken.isWellFormed(code) ? code : ""
        return try await join(code: linkCode, request: request, context: context) { problem, status in
            try joinLinkForm(code: "", personName: nil, problem: problem, status: status, context: context)
        }
    }

    // MARK: Settings

    @Sendable func settings(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let count = { (name: String) in max(0, request.queryFields[name].flatMap { Int($0) } ?? 0) }
        let notice = request.queryFields["notice"] == "imported"
            ? PersonalDataImportReport.notice(skippedStars: count("skipped-stars"), skippedBookmarks: count("skipped-bookmarks"))
            : request.queryFields["notice"].flatMap { Self.notices[$0] }
        return try await settingsPage(context: context, notice: notice, problem: nil, status: .ok, allDevices: request.queryFields["devices"] == "all")
    }

    @Sendable func pair(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let identity = try requireIdentity(context)
        var request = request
        let fields = try await request.formFields(context: context)
        var person = identity.person
        if let requested = fields["person"].flatMap(Int64.init), requested != person.id.rawValue {
            _ = try context.requireOwner(toDo: "pair a phone for someone else")
            guard let other = try await people.store.person(id: PersonID(rawValue: requested)) else {
                throw HTTPError(.notFound, message: "That person no longer exists.")
            }
            person = other
        }
        let code = try await people.store.makePairingCode(for: person.id)
        let bases = pairingBases(request: request, context: context)
        let joinPath = PeopleRoute.joinLink.href(code.linkCode)
        let links = people.trust?.phoneLinks.links(to: joinPath) ?? bases.map { $0 + joinPath }
        guard let link = links.first, let qr = QRCode(link) else { throw HTTPError(.internalServerError) }
        context.logger.notice("pairing code made for \(person.name.debugDescription) by \(identity.person.name.debugDescription)")
        let model = PairPage.Model(
            personName: person.name, link: link, otherLinks: Array(links.dropFirst()), shortCode: code.displayedShortCode,
            qrImage: "data:image/svg+xml;base64," + Data(qr.svg.utf8).base64EncodedString(),
            expiresAt: code.expiresAt.formatted(Date.FormatStyle(date: .omitted, time: .shortened, timeZone: .current).locale(Locale(identifier: "en_GB"))),
            joinHref: bases[0] + PeopleRoute.join.href()
        )
        var response = renderer.page(frame: PageFrame(title: "Pair a Phone", back: BackLink(label: "Settings", href: PeopleRoute.settings.href())), context: context) { _ in PairPage.View(model: model) }
        response.headers[.cacheControl] = "no-store"
        return response
    }

    @Sendable func signOutDevice(_ request: Request, context: PocketRequestContext, id: String) async throws -> Response {
        let identity = try requireIdentity(context)
        guard try await people.store.removeDevice(id: id, of: identity.person.id) else {
            throw HTTPError(.notFound, message: "You have no such device.")
        }
        if id == identity.device.id {
            context.sessions.clearSession()
            return Self.signedOutResponse()
        }
        return Response.redirect(to: PeopleRoute.settings.href() + "?notice=signed-out")
    }

    @Sendable func addPerson(_ request: Request, context: PocketRequestContext) async throws -> Response {
        _ = try context.requireOwner(toDo: "add people")
        var request = request
        let fields = try await request.formFields(context: context)
        do {
            let person = try await people.store.addPerson(name: fields["name"] ?? "", password: fields["password"] ?? "", isOwner: fields["owner"] != nil)
            context.logger.notice("person added: \(person.name.debugDescription)")
        } catch let error as PeopleError {
            return try await settingsPage(context: context, notice: nil, problem: error.description, status: .badRequest)
        }
        return Response.redirect(to: PeopleRoute.settings.href() + "?notice=added")
    }

    @Sendable func confirmRemovePerson(_ request: Request, context: PocketRequestContext, id: Int64) async throws -> Response {
        _ = try context.requireOwner(toDo: "remove people")
        guard let person = try await people.store.person(id: PersonID(rawValue: id)) else {
            throw HTTPError(.notFound, message: "That person no longer exists.")
        }
        return try renderer.confirmationPage(SettingsPage.Model.removal(of: person), back: BackLink(label: "Settings", href: PeopleRoute.settings.href()),
                                             app: nil, context: context)
    }

    @Sendable func removePerson(_ request: Request, context: PocketRequestContext, id: Int64) async throws -> Response {
        _ = try context.requireOwner(toDo: "remove people")
        guard let person = try await people.store.person(id: PersonID(rawValue: id)) else {
            throw HTTPError(.notFound, message: "That person no longer exists.")
        }
        do {
            try await people.store.removePerson(named: person.name)
            context.logger.notice("person removed: \(person.name.debugDescription)")
        } catch let error as PeopleError {
            return try await settingsPage(context: context, notice: nil, problem: error.description, status: .badRequest)
        }
        // Their devices went with them, so no request of theirs starts after this; the ones
        // already past the session check write first (the removal's own, if they removed
        // themselves, is left running).
        let own = context.identity?.person.id == person.id ? 1 : 0
        try await people.requests.shuttingOut(person.id, keeping: own) { try await household.personal.forget(person.id) }
        return Response.redirect(to: PeopleRoute.settings.href() + "?notice=removed")
    }

    @Sendable func changePassword(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let identity = try requireIdentity(context)
        var request = request
        let fields = try await request.formFields(context: context)
        // The current password is a password guess like a sign-in's: throttled per person.
        let keys = ["password-person:\(identity.person.id.rawValue)"]
        if let wait = await people.throttle.reserve(keys) {
            context.logger.warning("password change refused (throttled, \(wait) s) for \(identity.person.name.debugDescription)")
            var response = try await settingsPage(context: context, notice: nil, problem: "Too many wrong passwords: wait \(wait) seconds, then try again.", status: .tooManyRequests)
            response.headers[.retryAfter] = String(wait)
            return response
        }
        guard try await people.store.verify(name: identity.person.name, password: fields["current"] ?? "") != nil else {
            context.logger.warning("password change: wrong current password for \(identity.person.name.debugDescription)")
            return try await settingsPage(context: context, notice: nil, problem: "The current password is not right.", status: .badRequest)
        }
        await people.throttle.recordSuccess(keys)
        do {
            try await people.store.setPassword(named: identity.person.name, to: fields["password"] ?? "")
        } catch let error as PeopleError {
            return try await settingsPage(context: context, notice: nil, problem: error.description, status: .badRequest)
        }
        // The new password signed every device out, this one included: sign this one back in.
        try await signInThisDevice(as: identity.person, request: request, context: context)
        return Response.redirect(to: PeopleRoute.settings.href() + "?notice=password")
    }
}

// MARK: - Helpers

private extension PeoplePages {
    static let notices = [
        "added": "Added.", "removed": "Removed.", "signed-out": "That device is signed out.",
        "password": "Password changed. Your other devices are signed out.",
    ]

    /// Pairing attempts, redeemed or only looked up, are counted per client address.
    static func joinKeys(_ context: PocketRequestContext) -> [String] {
        ["join-address:\(context.clientAddress)"]
    }

    /// To the sign-in page, and the browser forgets the pages it kept of this person (their
    /// cached copies would otherwise still open offline on a shared device).
    static func signedOutResponse() -> Response {
        var response = Response.redirect(to: PeopleRoute.signIn.href())
        response.headers[.clearSiteData] = "\"cache\", \"storage\""
        return response
    }

    func requireIdentity(_ context: PocketRequestContext) throws -> SignedIn {
        guard let identity = context.identity else { throw HTTPError(.unauthorized, message: "Sign in first.") }
        return identity
    }

    func requireSetupToken(_ token: String) async throws {
        guard RandomToken.matches(token, people.setupToken), try await people.store.isEmpty() else {
            throw HTTPError(.notFound, message: "That setup link has been used or is not this Pocket’s. Sign in instead.")
        }
    }

    /// Registers this browser as a new device of `person` and starts its year-long session.
    func signInThisDevice(as person: Person, request: Request, context: PocketRequestContext) async throws {
        if let old = context.identity {
            try await people.store.removeDevice(id: old.device.id, of: old.person.id)
        }
        let device = try await people.store.addDevice(for: person.id, userAgent: request.headers[.userAgent])
        context.sessions.createSession(DeviceSession(deviceID: device.id), expiresIn: WebPeople.deviceLifetime)
        context.logger.notice("signed in: \(person.name.debugDescription) on \(device.name) from \(context.clientAddress)")
    }

    func join(code: String, request: Request, context: PocketRequestContext, problem: (String, HTTPResponse.Status) throws -> Response) async throws -> Response {
        let keys = Self.joinKeys(context)
        if let wait = await people.throttle.reserve(keys) {
            context.logger.warning("pairing refused (throttled, \(wait) s) from \(context.clientAddress)")
            var response = try problem("Too many wrong codes: wait \(wait) seconds, then try again.", .tooManyRequests)
            response.headers[.retryAfter] = String(wait)
            return response
        }
        let person: Person
        do {
            person = try await people.store.redeemPairingCode(code)
        } catch let error as PeopleError {
            context.logger.warning("pairing failed from \(context.clientAddress)")
            return try problem(error.description, .notFound)
        }
        await people.throttle.recordSuccess(keys)
        try await signInThisDevice(as: person, request: request, context: context)
        return Response.redirect(to: TrustRoute.welcome.href())
    }

    /// Where a phone can reach this Pocket: the address the asking browser used, unless that is
    /// loopback (a phone cannot use it), then every address the server is reachable at.
    func pairingBases(request: Request, context: PocketRequestContext) -> [String] {
        let scheme = context.isSecure ? "https" : "http"
        var bases: [String] = []
        if let host = request.head.authority, !Self.isLoopback(host), Self.isPlainHost(host) {
            bases.append("\(scheme)://\(host)")
        }
        bases += people.reachableBaseURLs().filter { !bases.contains($0) }
        if bases.isEmpty, let host = request.head.authority, Self.isPlainHost(host) {
            bases.append("\(scheme)://\(host)")
        }
        return bases.isEmpty ? ["\(scheme)://127.0.0.1"] : bases
    }

    static func isLoopback(_ host: String) -> Bool {
        let name = host.hasPrefix("[") ? String(host.dropFirst().prefix { $0 != "]" }) : String(host.split(separator: ":").first ?? "")
        return name == "localhost" || name.hasPrefix("127.") || name == "::1"
    }

    /// A Host header fit to put in a link: letters, digits, dots, colons, hyphens and brackets only.
    static func isPlainHost(_ host: String) -> Bool {
        !host.isEmpty && host.count <= 255 && host.unicodeScalars.allSatisfy { CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.:-[]").contains($0) }
    }

    func signInForm(next: String, name: String, problem: String?, status: HTTPResponse.Status, context: PocketRequestContext) throws -> Response {
        renderer.page(frame: PageFrame(title: "Sign In"), context: context, status: status) { SignInPage.View(model: SignInPage.Model(next: next, name: name, problem: problem), pageContext: $0) }
    }

    func joinForm(problem: String?, status: HTTPResponse.Status, context: PocketRequestContext) throws -> Response {
        let model = JoinPage.Model(action: PeopleRoute.join.href(), personName: nil, problem: problem, isCodeForm: true)
        return renderer.page(frame: PageFrame(title: "Pair This Phone"), context: context, status: status) { JoinPage.View(model: model, pageContext: $0) }
    }

    func joinLinkForm(code: String, personName: String?, problem: String?, status: HTTPResponse.Status, context: PocketRequestContext) throws -> Response {
        let model = JoinPage.Model(action: PeopleRoute.joinLink.href(code), personName: personName, problem: problem, isCodeForm: false)
        var response = renderer.page(frame: PageFrame(title: "Pair This Phone"), context: context, status: status) { JoinPage.View(model: model, pageContext: $0) }
        response.headers[.cacheControl] = "no-store"
        return response
    }

    func settingsPage(context: PocketRequestContext, notice: String?, problem: String?, status: HTTPResponse.Status,
                      allDevices: Bool = false) async throws -> Response {
        let identity = try requireIdentity(context)
        let devices = try await people.store.devices(
            of: identity.person.id, limit: allDevices ? PeopleDatabase.devicesPerPerson : SettingsPage.Model.devicesShown)
        let everyone = identity.person.isOwner ? try await people.store.people() : []
        let data = SettingsData.Model(person: identity.person, people: everyone, csrfToken: context.csrfToken,
                                      latestBackup: identity.person.isOwner ? household.backups?.latest() : nil, backupsOn: household.backups != nil,
                                      backupFailure: identity.person.isOwner ? household.backupHealth?.failure() : nil)
        let model = SettingsPage.Model(
            person: identity.person, thisDevice: identity.device.id,
            devices: devices.devices, totalDevices: devices.total,
            people: everyone,
            notice: notice, problem: problem,
            certificate: identity.person.isOwner ? people.trust.map(CertificateSummary.Model.init) : nil,
            data: data
        )
        return renderer.page(frame: PageFrame(title: "Settings", back: BackLink(label: "Pocket", href: ShellRoute.home.href()), largeTitle: true), context: context, status: status) { SettingsPage.View(model: model, pageContext: $0) }
    }
}
