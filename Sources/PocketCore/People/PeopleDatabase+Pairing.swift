import Crypto
import Foundation
import GRDB

extension PeopleDatabase {
    /// Makes a pairing code that signs one phone in as `person`: valid five minutes, and once.
    public func makePairingCode(for person: PersonID, at date: Date = Date()) async throws -> PairingCode {
        let code = PairingCode(
            linkCode: RandomToken.make(), shortCode: ShortCode.make(), person: person,
            expiresAt: date.addingTimeInterval(Self.pairingLifetime)
        )
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM pairing WHERE expiresAt <= ?", arguments: [date])
            try db.execute(
                sql: "INSERT INTO pairing(linkHash, shortHash, personID, expiresAt) VALUES (?, ?, ?, ?)",
                arguments: [Self.digest(code.linkCode), Self.digest(code.shortCode), person.rawValue, code.expiresAt]
            )
        }
        return code
    }

    /// Who a still-valid code would sign in, without using it up (for the page that asks first).
    public func pairingPerson(code: String, at date: Date = Date()) async throws -> Person? {
        let digest = Self.digest(Self.normalized(code))
        return try await writer.read { db in
            try Row.fetchOne(db, sql: """
                SELECT person.* FROM pairing JOIN person ON person.id = pairing.personID
                WHERE (pairing.linkHash = ? OR pairing.shortHash = ?) AND pairing.expiresAt > ?
                """, arguments: [digest, digest, date]).map(Self.person)
        }
    }

    /// Uses a code (the link's or the short one) up and returns its person; a second use, an
    /// expired code or an unknown one throws `PeopleError.pairingCodeInvalid`.
    public func redeemPairingCode(_ code: String, at date: Date = Date()) async throws -> Person {
        let digest = Self.digest(Self.normalized(code))
        return try await writer.write { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT person.*, pairing.rowid AS pairingRow FROM pairing JOIN person ON person.id = pairing.personID
                WHERE (pairing.linkHash = ? OR pairing.shortHash = ?) AND pairing.expiresAt > ?
                """, arguments: [digest, digest, date]) else {
                throw PeopleError.pairingCodeInvalid
            }
            try db.execute(sql: "DELETE FROM pairing WHERE rowid = ?", arguments: [try row.decode(Int64.self, forColumn: "pairingRow")])
            return try Self.person(row)
        }
    }

    /// Short codes are typed: ignore case, spaces and hyphens, and read O as 0 and I or L as 1.
    static func normalized(_ code: String) -> String {
        guard code.count <= 20 else { return code } // a link code: compared as it is
        return String(code.uppercased().compactMap { character -> Character? in
            switch character {
            case "-", " ": nil
            case "O": "0"
            case "I", "L": "1"
            default: character
            }
        })
    }

    static func digest(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}

/// Random URL-safe tokens: 43 characters, 258 bits from the system's secure generator.
public enum RandomToken {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    /// The length of every token.
    public static let length = 43

    /// A new token.
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<length).map { _ in alphabet[Int(generator.next(upperBound: UInt8(alphabet.count)))] }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `token` could be one of ours (right length and letters).
    public static func isWellFormed(_ token: String) -> Bool {
        token.utf8.count == length && token.utf8.allSatisfy { alphabet.contains($0) }
    }

    /// Compares without an early exit, so timing says nothing about how much matched.
    public static func matches(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count, !x.isEmpty else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}

/// The short pairing code: 8 characters of Crockford's base 32 (2^40 codes), so that with sign-in
/// throttling nobody can guess a live one in its five minutes.
enum ShortCode {
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")

    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<8).map { _ in alphabet[Int(generator.next(upperBound: UInt8(alphabet.count)))] })
    }
}
