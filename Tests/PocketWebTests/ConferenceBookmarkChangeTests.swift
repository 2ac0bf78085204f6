import Conference
import Foundation
import Hummingbird
import HummingbirdTesting
import PocketCore
import Testing
@testable import PocketWeb

/// `POST /conference/bookmarks/changes`: bookmarks through the outbox contract, each id once, the
/// latest change per talk winning, only the signed-in person's.
@Suite("Conference bookmark changes")
struct ConferenceBookmarkChangeTests {
    private struct Answer: Decodable, Equatable {
        let id: String
        let talk: Int
        let bookmarked: Bool
        let result: String
    }

    private func send(_ client: some TestClientProtocol, _ json: String, as member: TestHousehold.Member) async throws -> TestResponse {
        try await client.execute(
            uri: "/conference/bookmarks/changes", method: .post,
            headers: [.contentType: "application/json", .accept: "application/json", .cookie: member.cookie, .csrfToken: member.token],
            body: ByteBuffer(string: json))
    }

    @Test func aBookmarkChangeAppliesOnceAndTheLatestPerTalkWins() async throws {
        let library = try await ConferenceFixtures.library()
        let household = try await TestHousehold.make()
        let (owner, member) = (household.owner, household.member)
        let app = try await makeApplication(apps: [ConferenceFixtures.app(library)], household: household)
        try await app.test(.router) { client in
            let first = try await send(client, owner.change("b1", at: outboxBase, #"{"kind":"bookmark","talk":8803}"#), as: owner)
            #expect(first.status == .ok)
            #expect(try JSONDecoder().decode(Answer.self, from: Data(buffer: first.body)) == Answer(id: "b1", talk: 8803, bookmarked: true, result: "applied"))
            // A resend changes nothing; an older change from another phone does not undo it.
            let again = try await send(client, owner.change("b1", at: outboxBase, #"{"kind":"bookmark","talk":8803}"#), as: owner)
            #expect(try JSONDecoder().decode(Answer.self, from: Data(buffer: again.body)).result == "duplicate")
            let older = try await send(client, owner.change("b0", at: outboxBase - 1, #"{"kind":"unbookmark","talk":8803}"#), as: owner)
            #expect(try JSONDecoder().decode(Answer.self, from: Data(buffer: older.body)) == Answer(id: "b0", talk: 8803, bookmarked: true, result: "superseded"))
            // The member's bookmarks are the member's.
            _ = try await send(client, member.change("m1", at: outboxBase + 5, #"{"kind":"bookmark","talk":8802}"#), as: member)
            // A talk the database does not have cannot be bookmarked; a bad kind is not a change.
            let unknown = try await send(client, owner.change("u", at: outboxBase, #"{"kind":"bookmark","talk":99999}"#), as: owner)
            #expect(unknown.status == .notFound)
            let bad = try await send(client, owner.change("k", at: outboxBase, #"{"kind":"star","talk":8803}"#), as: owner)
            #expect(bad.status == .badRequest)
            #expect(String(buffer: bad.body) == #"{"error":"That change cannot be applied: “kind” must be bookmark or unbookmark."}"#)
        }
        #expect(try await library.bookmarkedTalkIDs(of: owner.person.id) == [8803])
        #expect(try await library.bookmarkedTalkIDs(of: member.person.id) == [8802])
        // The page's own form is a change made now: it wins over an older one arriving later.
        try await library.setBookmark(false, talkID: 8803, for: owner.person.id)
        let late = try ToggleChange.bookmark(id: "late", at: outboxBase + 10, kind: "bookmark", talkID: 8803)
        #expect(try await library.apply(late, for: owner.person.id).result == .superseded)
        #expect(try await library.bookmarkedTalkIDs(of: owner.person.id).isEmpty)
    }
}
