import Foundation
import Hummingbird
import PocketCore

/// A person's own data (Settings → Export My Data), importing an export as a person (owners),
/// and downloading the newest backup (owners). Whose data an export holds is decided by the
/// signed-in device, never by the request; owners are checked here, on the server.
struct HouseholdDataPages: Sendable {
    let people: WebPeople
    let household: HouseholdData

    /// Every route needs a signed-in person.
    var privateEndpoints: [Endpoint] {
        [PeopleRoute.exportData.handle(exportData), PeopleRoute.importData.handle(importData), PeopleRoute.latestBackup.handle(latestBackup)]
    }

    @Sendable func exportData(_ request: Request, context: PocketRequestContext) async throws -> Response {
        guard let identity = context.identity else { throw HTTPError(.unauthorized, message: "Sign in first.") }
        let now = Date()
        let data = try await household.personal.export(for: identity.person, now: now).encoded()
        context.logger.notice("personal data exported by \(identity.person.name.debugDescription)")
        return Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8", .contentDisposition: "attachment; filename=\"pocket-my-data-\(Self.day(now)).json\"",
                      .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(data: data))
        )
    }

    /// A multipart form: the file, and either an existing person's id or a new person's name and password.
    @Sendable func importData(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let owner = try context.requireOwner(toDo: "import a person’s data")
        let form: MultipartForm
        do {
            form = try await MultipartForm.read(request.body, contentType: request.headers[.contentType], limit: PersonalData.sizeLimit)
        } catch MultipartForm.Failure.tooLarge {
            throw HTTPError(.contentTooLarge, message: PersonalDataError.tooLarge.description)
        } catch {
            throw HTTPError(.badRequest, message: "The import form arrived incomplete; choose the file and send it again.")
        }
        guard let file = form.files["file"], !file.isEmpty else { throw HTTPError(.badRequest, message: "Choose an export file (.json) to import.") }
        let document: PersonalData
        do {
            document = try PersonalData.decode(file)
        } catch {
            throw HTTPError(.badRequest, message: error.description)
        }
        let target = try await importTarget(form.fields)
        let report: PersonalDataImportReport
        do {
            report = try await household.personal.importData(document, for: target.person.id)
        } catch {
            // A person made for this import goes again, so a refused import leaves nothing behind.
            if target.isNew {
                _ = try? await people.store.removePerson(named: target.person.name)
                try? await household.personal.forget(target.person.id)
            }
            throw HTTPError(.badRequest, message: error.description)
        }
        context.logger.notice("personal data of \(document.person.debugDescription) imported as \(target.person.name.debugDescription) by \(owner.name.debugDescription)")
        if report != PersonalDataImportReport() {
            context.logger.notice("""
                import left out \(report.skippedStars.count) stars of murals this Pocket lacks \(Array(report.skippedStars.prefix(20))) \
                and \(report.skippedBookmarks.count) bookmarks of talks it lacks \(Array(report.skippedBookmarks.prefix(20)))
                """)
        }
        // Settings says what was skipped from the counts in its address (numbers only, so a link cannot put words there).
        var location = PeopleRoute.settings.href() + "?notice=imported"
        if !report.skippedStars.isEmpty { location += "&skipped-stars=\(report.skippedStars.count)" }
        if !report.skippedBookmarks.isEmpty { location += "&skipped-bookmarks=\(report.skippedBookmarks.count)" }
        return Response(status: .seeOther, headers: [.location: location])
    }

    /// The newest backup, resumable: `Range` and `If-Range` are answered (a phone's download
    /// that stopped part-way goes on from there, or starts again if a newer backup replaced it).
    @Sendable func latestBackup(_ request: Request, context: PocketRequestContext) async throws -> Response {
        _ = try context.requireOwner(toDo: "download backups")
        let none = HTTPError(.notFound, message: "Pocket has made no backup yet.")
        guard let latest = household.backups?.latest() else { throw none }
        var response = try await SingleFile(path: latest.url.path).response(to: request, context: context) { none }
        if response.status == .ok, request.headers[.range] == nil {
            context.logger.notice("backup \(latest.url.lastPathComponent) downloaded")
        }
        response.headers[.contentType] = "application/zip"
        response.headers[.cacheControl] = "no-store"
        response.headers[.contentDisposition] = "attachment; filename=\"\(latest.url.lastPathComponent)\""
        return response
    }
}

// MARK: - Helpers

private extension HouseholdDataPages {
    /// The person the import is for: an existing one by id, or one made now (a member).
    func importTarget(_ fields: [String: String]) async throws -> (person: Person, isNew: Bool) {
        let choice = fields["person"] ?? "new"
        if choice != "new" {
            guard let id = Int64(choice), let person = try await people.store.person(id: PersonID(rawValue: id)) else {
                throw HTTPError(.notFound, message: "That person no longer exists.")
            }
            return (person, false)
        }
        do {
            let person = try await people.store.addPerson(name: fields["name"] ?? "", password: fields["password"] ?? "", isOwner: false)
            return (person, true)
        } catch let error as PeopleError {
            throw HTTPError(.badRequest, message: error.description)
        }
    }

    static func day(_ date: Date) -> String {
        let parts = Calendar(identifier: .gregorian).dateComponents(in: .current, from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}

/// A small `multipart/form-data` body read whole (an import form: a JSON file and a few fields),
/// read by the same `MultipartFileUpload.Reader` (MultipartKit's parser) as the Conference upload,
/// with a limit on the whole body.
struct MultipartForm {
    /// Why a form could not be read.
    enum Failure: Error {
        case notMultipart
        case malformed
        case tooLarge
    }

    /// Text fields by name (the first of each).
    var fields: [String: String] = [:]
    /// File fields' contents by name (the first of each).
    var files: [String: Data] = [:]

    /// Reads the whole form; throws `.tooLarge` past `limit` (plus room for the other fields), and
    /// `.malformed` for a body MultipartKit's parser refuses or that ends before its closing delimiter.
    static func read(_ body: RequestBody, contentType: String?, limit: Int64) async throws(Failure) -> MultipartForm {
        guard let boundary = MultipartFileUpload.boundary(contentType: contentType) else { throw .notMultipart }
        var form = MultipartForm()
        var current: (headers: MultipartFileUpload.PartHeaders, bytes: ByteBuffer)?
        var total: Int64 = 0
        do {
            var reader = try MultipartFileUpload.Reader(boundary: boundary)
            for try await chunk in body {
                total += Int64(chunk.readableBytes)
                if total > limit + 64 * 1024 { throw Failure.tooLarge }
                for event in try reader.feed(chunk) {
                    switch event {
                    case .part(let headers):
                        current = (headers, ByteBuffer())
                    case .data(var bytes):
                        current?.bytes.writeBuffer(&bytes)
                    case .partEnd:
                        guard let part = current, let name = part.headers.name else { continue }
                        if part.headers.fileName != nil {
                            if form.files[name] == nil { form.files[name] = Data(part.bytes.readableBytesView) }
                        } else if form.fields[name] == nil {
                            form.fields[name] = String(buffer: part.bytes)
                        }
                        current = nil
                    }
                }
            }
            try reader.finish()
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .malformed
        }
        return form
    }
}
