import Conference
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import PocketWeb

/// Installing from the web: a download from a loopback manifest, a failing one, and uploads.
@Suite("Conference installs")
struct ConferenceInstallRouteTests {
    @Test func checkingThenDownloadingInstallsTheFullDatabaseAndTheBannerGoes() async throws {
        let release = try ConferenceFixtures.release()
        try await ConferenceFixtures.serving(release) { manifestURL in
            let library = try await ConferenceFixtures.library()
            let conference = ConferenceFixtures.app(library, manifestURL: manifestURL)
            let app = try await makeApplication(apps: [conference])
            try await app.test(.router) { client in
                let token = try await client.sessionToken()
                let checked = try await client.postForm("/conference/settings/check", token: token)
                #expect(checked.status == .seeOther)
                #expect(checked.headers[.location] == "/conference/settings")
                let offer = try await client.text("/conference/settings")
                #expect(offer.text.contains(#"id="conference-check-status">Version 2 is available.</span>"#))
                #expect(offer.text.contains("Download the Full Database"))
                #expect(offer.text.contains("Version 2, \(ConferenceFormat.bytes(Int64(release.zip.count)))"))
                let banner = try await client.text("/conference")
                #expect(banner.text.contains("Download the full database (\(ConferenceFormat.bytes(Int64(release.zip.count))))"))

                let started = try await client.postForm("/conference/settings/install", token: token)
                #expect(started.status == .seeOther)
                await conference.waitUntilIdle()
                let done = try await client.text("/conference/settings")
                #expect(done.text.contains(#"id="conference-install-success" role="status">Installed version 2.</p>"#))
                #expect(done.text.contains(#"id="conference-db-label">Database version 2</span>"#))
                #expect(done.text.contains("Version 2 is installed and up to date."))
                #expect(!done.text.contains("conference-sample-banner"))
                let list = try await client.text("/conference")
                #expect(list.text.contains("Database version 2 · Last updated 2026-01-31 00:00:00"))
                #expect(!list.text.contains("conference-sample-banner"))

                // An import replaces the downloaded database.
                let other = try ConferenceFixtures.release(version: "3", lastUpdated: "2026-03-03 00:00:00")
                let upload = ConferenceFixtures.multipart(fileName: "core.3.db", data: other.database)
                let imported = try await client.postImport(upload, token: token)
                #expect(imported.status == .seeOther)
                await conference.waitUntilIdle()
                let after = try await client.text("/conference/settings")
                #expect(after.text.contains(#"id="conference-install-success" role="status">Imported core.3.db.</p>"#))
                #expect(after.text.contains(#"id="conference-db-label">Imported database core.3.db</span>"#))
                #expect(after.text.contains(#"id="conference-db-updated">2026-03-03 00:00:00</span>"#))
            }
        }
    }

    @Test func aFailingDownloadSaysWhyAndTheSampleKeepsServing() async throws {
        let release = try ConferenceFixtures.release(wrongMD5: true)
        try await ConferenceFixtures.serving(release) { manifestURL in
            let library = try await ConferenceFixtures.library()
            let conference = ConferenceFixtures.app(library, manifestURL: manifestURL)
            let app = try await makeApplication(apps: [conference])
            try await app.test(.router) { client in
                let token = try await client.sessionToken()
                _ = try await client.postForm("/conference/settings/install", token: token)
                await conference.waitUntilIdle()
                let page = try await client.text("/conference/settings")
                #expect(page.text.contains(#"id="conference-install-failure" role="alert">sci-core.2.zip is damaged: its MD5 is"#))
                #expect(page.text.contains("but the manifest says 00000000000000000000000000000000. The previous database is still in use.</p>"))
                #expect(page.text.contains(#"id="conference-db-label">Sample data (April and October 2025)</span>"#))
                let list = try await client.text("/conference")
                #expect(list.text.contains("conference-sample-banner"))
                #expect(list.text.contains("October 2025 General Conference"))
                let leftovers = try FileManager.default.contentsOfDirectory(atPath: library.incomingFolder.path)
                #expect(leftovers.isEmpty)
            }
        }
    }

    @Test func anUploadedDatabaseIsImportedAndItsTextIsEscaped() async throws {
        let hostile = #"<img src=x onerror="alert(1)">&amp;"#
        let release = try ConferenceFixtures.release(hostileTitle: hostile)
        let library = try await ConferenceFixtures.library()
        let conference = ConferenceFixtures.app(library)
        let app = try await makeApplication(apps: [conference])
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            let upload = ConferenceFixtures.multipart(fileName: "C:\\Users\\me\\core.53.db", data: release.database, boundary: "----Pocket Quoted:7MA4")
            // A boundary with a space must be quoted in the header, and is read without its quotes.
            let response = try await client.postImport((upload.body, #"multipart/form-data; boundary="----Pocket Quoted:7MA4""#), token: token)
            #expect(response.status == .seeOther)
            await conference.waitUntilIdle()
            let page = try await client.text("/conference/settings")
            #expect(page.text.contains(#"id="conference-install-success" role="status">Imported core.53.db.</p>"#))
            #expect(page.text.contains(#"id="conference-db-label">Imported database core.53.db</span>"#))
            let talk = try await client.text("/conference/talks/8769")
            #expect(!talk.text.contains("<img src=x"))
            #expect(talk.text.contains("&lt;img src=x onerror="))
            let conferencePage = try await client.text("/conference/conferences/202504")
            #expect(!conferencePage.text.contains("<img src=x"))
            // The upload went through a temporary file that is gone now.
            let uploads = (try? FileManager.default.contentsOfDirectory(atPath: library.folder.appendingPathComponent("uploads").path)) ?? []
            #expect(uploads.isEmpty)
        }
    }

    @Test func badUploadsAreRefusedWithAMessageAndChangeNothing() async throws {
        let library = try await ConferenceFixtures.library()
        let conference = ConferenceFixtures.app(library)
        let app = try await makeApplication(apps: [conference])
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            let headers: (String) -> HTTPFields = { [.contentType: $0, .cookie: "pocket_csrf=\(token)"] }
            // Not a database: the import runs and fails with the verifier's words.
            let junk = ConferenceFixtures.multipart(fileName: "notes.db", data: Data(repeating: 0x41, count: 4096))
            let imported = try await client.postImport(junk, token: token)
            #expect(imported.status == .seeOther)
            await conference.waitUntilIdle()
            let failed = try await client.text("/conference/settings")
            #expect(failed.text.contains(#"id="conference-install-failure" role="alert">This is not a Scripture Citation Index database"#))
            #expect(failed.text.contains(#"id="conference-db-label">Sample data (April and October 2025)</span>"#))
            // No file chosen.
            let none = ConferenceFixtures.multipart(field: "other", fileName: "x.db", data: Data("x".utf8))
            try await client.execute(uri: "/conference/settings/import?_csrf=\(token)", method: .post, headers: headers(none.contentType), body: none.body) { response in
                #expect(response.status == .badRequest)
                #expect(response.text.contains(#"id="conference-import-problem" role="alert">Choose a database file (for example core.53.db) to import.</p>"#))
            }
            // Not multipart at all: a token in the address is taken from multipart uploads only.
            try await client.execute(uri: "/conference/settings/import?_csrf=\(token)", method: .post, headers: headers("application/octet-stream"), body: ByteBuffer(string: "x")) { response in
                #expect(response.status == .forbidden)
            }
            var withToken = headers("application/octet-stream")
            withToken[.csrfToken] = token
            try await client.execute(uri: "/conference/settings/import", method: .post, headers: withToken, body: ByteBuffer(string: "x")) { response in
                #expect(response.status == .badRequest)
            }
            // Cut off before the closing boundary.
            let truncated = ConferenceFixtures.multipart(fileName: "core.db", data: Data("abc".utf8))
            var cut = truncated.body
            cut.moveWriterIndex(to: cut.writerIndex - 10)
            try await client.execute(uri: "/conference/settings/import?_csrf=\(token)", method: .post, headers: headers(truncated.contentType), body: cut) { response in
                #expect(response.status == .badRequest)
                #expect(response.text.contains("The upload arrived incomplete"))
            }
            // Parts between some other boundary than the header names.
            let otherBoundary = ConferenceFixtures.multipart(fileName: "core.db", data: Data("abc".utf8), boundary: "SomethingElse")
            try await client.execute(uri: "/conference/settings/import?_csrf=\(token)", method: .post, headers: headers(truncated.contentType), body: otherBoundary.body) { response in
                #expect(response.status == .badRequest)
                #expect(response.text.contains(#"id="conference-import-problem" role="alert">The upload arrived incomplete; send the form again.</p>"#))
            }
            #expect(await library.installedDatabase() == nil)
        }
    }
}
