import Conference
import Foundation
import Hummingbird
import HummingbirdTesting
import PocketCore
import TestSupport
@testable import PocketWeb

/// Test parts for the Conference routes: a library on a temporary data folder (sample data), a
/// "full" database made from the sample, and a loopback server that serves its manifest and zip.
enum ConferenceFixtures {
    /// A fresh library in a temporary folder; it serves the built-in sample.
    static func library() async throws -> ConferenceLibrary {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("conference-web-\(UUID().uuidString)", isDirectory: true)
        return try await ConferenceLibrary.open(folder: folder)
    }

    /// The layout values of a request whose CSRF token is `csrfToken`, for rendering a view on its own.
    static func pageContext(csrfToken: String) -> PageContext {
        PageContext(csrfToken: csrfToken, stylesheet: "/static/css/pocket.css", script: "/static/js/pocket.js", favicon: "/static/icons/pocket.svg",
               faviconPNG: "/static/icons/favicon-32.png", appleTouchIcon: "/static/icons/apple-touch-icon.png", appStylesheet: nil, version: "test", importMap: "{}")
    }

    /// The app on `library`, looking for updates at `manifestURL` (a closed port unless a test serves one).
    static func app(_ library: ConferenceLibrary, manifestURL: URL = URL(string: "http://127.0.0.1:9/sci-core.json")!) -> ConferenceApp {
        ConferenceApp(library: library, manifestURL: manifestURL)
    }

    /// A database file, its zip, and the manifest describing them.
    struct Release {
        let database: Data
        let zip: Data
        let manifest: Data
    }

    /// A full database for the tests: the sample with `updated.last_updated` changed (and, if given,
    /// hostile text in a talk title and a speaker's name), zipped with Python's zipfile.
    static func release(version: String = "2", lastUpdated: String = "2026-01-31 00:00:00", hostileTitle: String? = nil,
                        wrongMD5: Bool = false) throws -> Release {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("conference-release-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("core.\(version).db")
        try SampleDatabase.build(at: db)
        let script = """
            import hashlib, json, sqlite3, sys, zipfile
            db, zip_path, version, updated, hostile, wrong = sys.argv[1:7]
            con = sqlite3.connect(db)
            con.execute("UPDATE updated SET last_updated = ?", (updated,))
            if hostile:
                con.execute("UPDATE talk SET Title = ? WHERE ID = 8769", (hostile,))
                con.execute("UPDATE speaker SET LastNames = ? WHERE ID = 1127", (hostile,))
            con.commit(); con.close()
            with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as z:
                z.write(db, arcname=db.rsplit("/", 1)[1])
            data = open(db, "rb").read(); packed = open(zip_path, "rb").read()
            md5 = hashlib.md5(packed).hexdigest()
            print(json.dumps({"version": version, "download-name": zip_path.rsplit("/", 1)[1], "download-size": str(len(packed)),
                "download-md5": ("0" * 32) if wrong == "1" else md5, "content-name": db.rsplit("/", 1)[1],
                "content-size": str(len(data)), "content-md5": hashlib.md5(data).hexdigest()}))
            """
        let zip = folder.appendingPathComponent("sci-core.\(version).zip")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, db.path, zip.path, version, lastUpdated, hostileTitle ?? "", wrongMD5 ? "1" : "0"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let manifest = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw HTTPError(.internalServerError, message: "python3 failed") }
        return Release(database: try Data(contentsOf: db), zip: try Data(contentsOf: zip), manifest: manifest)
    }

    /// Serves `release` at `/sci-core.json` and its zip beside it on a loopback port, for `body`.
    static func serving(_ release: Release, _ body: @Sendable (URL) async throws -> Void) async throws {
        try await LoopbackServer.serving({ addRoutes(serving: release, to: $0) }) { base in
            try await body(base.appendingPathComponent("sci-core.json"))
        }
    }

    /// The manifest and the zip it names.
    private static func addRoutes(serving release: Release, to router: Router<BasicRequestContext>) {
        let zipName = "sci-core.\((try? JSONSerialization.jsonObject(with: release.manifest) as? [String: String])?["version"] ?? "2").zip"
        router.get("sci-core.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: release.manifest)))
        }
        router.get(RouterPath(stringLiteral: zipName)) { _, _ in
            Response(status: .ok, headers: [.contentType: "application/zip", .contentLength: String(release.zip.count)],
                     body: .init(byteBuffer: ByteBuffer(bytes: release.zip)))
        }
    }

    /// A multipart/form-data body with one file field.
    static func multipart(field: String = "database", fileName: String, data: Data, boundary: String = "PocketBoundary7MA4YWxk") -> (body: ByteBuffer, contentType: String) {
        var bytes = Data()
        bytes.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n".utf8))
        bytes.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"; filename=\"\(fileName)\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8))
        bytes.append(data)
        bytes.append(Data("\r\n--\(boundary)--\r\n".utf8))
        return (ByteBuffer(bytes: bytes), "multipart/form-data; boundary=\(boundary)")
    }
}

extension TestClientProtocol {
    /// POSTs a urlencoded form with the session's token in its cookie and body.
    func postForm(_ uri: String, token: String, body: String = "") async throws -> TestResponse {
        try await execute(uri: uri, method: .post,
                          headers: [.contentType: "application/x-www-form-urlencoded", .cookie: "pocket_csrf=\(token)"],
                          body: ByteBuffer(string: "_csrf=\(token)&" + body))
    }

    /// POSTs a multipart upload to Settings' import with the session's token in its cookie and query.
    func postImport(_ upload: (body: ByteBuffer, contentType: String), token: String) async throws -> TestResponse {
        try await execute(uri: "/conference/settings/import?_csrf=\(token)", method: .post,
                          headers: [.contentType: upload.contentType, .cookie: "pocket_csrf=\(token)"], body: upload.body)
    }

    /// GETs a page's text.
    func text(_ uri: String) async throws -> (status: HTTPResponse.Status, text: String) {
        try await execute(uri: uri, method: .get) { ($0.status, $0.text) }
    }
}
