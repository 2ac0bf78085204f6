import Crypto
import Foundation
import GRDB
import HummingbirdBcrypt

/// Pocket's people (`people.sqlite`): who may sign in, their signed-in devices, pairing codes,
/// and the stored sessions the web server's session cookies point at. Migrated when opened.
///
/// Passwords are stored only as bcrypt hashes and pairing codes only as SHA-256 digests, so the
/// file on its own signs no one in.
public struct PeopleDatabase: HealthChecked {
    let writer: any DatabaseWriter
    private let passwordCost: UInt8
    /// Remembers sessions and signed-in devices between commits; only on disk, where a second
    /// connection can watch the file (an in-memory store reads every time).
    private(set) var cache: SignInCache?

    /// The store's file in the data directory: the database every backup must hold, as no
    /// download brings back the people, their devices and passwords.
    public static let fileName = "people.sqlite"

    /// How long a pairing code can be used.
    public static let pairingLifetime: TimeInterval = 5 * 60

    /// Opens (and migrates) the store at `url`, normally `people.sqlite` in the data directory;
    /// `caches` is for the page benchmark, which can pass the sign-in cache through.
    public static func onDisk(at url: URL, caches: Caches = .all) throws -> PeopleDatabase {
        var store = try PeopleDatabase(writer: DatabaseFactory.onDisk(at: url, label: "people"))
        store.cache = try SignInCache(path: url.path, caches: caches)
        return store
    }

    /// A fresh store in memory, for tests; bcrypt at its lowest cost so tests stay quick.
    public static func inMemory() throws -> PeopleDatabase {
        try PeopleDatabase(writer: DatabaseFactory.inMemory(label: "people"), passwordCost: 4)
    }

    /// Wraps a database, migrating it first. `passwordCost` is bcrypt's log2 rounds (4…31).
    public init(writer: any DatabaseWriter, passwordCost: UInt8 = 10) throws {
        self.writer = writer
        self.passwordCost = min(max(passwordCost, 4), 31)
        try Self.migrator.migrate(writer)
    }

    /// Every migration this Pocket knows for `people.sqlite`, oldest first: a restore refuses a backup
    /// whose database ran one that is not here (it comes from a newer Pocket).
    public static var migrationIdentifiers: [String] {
        migrator.migrations
    }

    /// Whether `people.sqlite` can be read.
    public func checkHealth() async throws {
        try await writer.checkSchemaReadable()
    }

    // MARK: People

    /// Whether no one has been set up yet (a new Pocket serves only its setup link then).
    public func isEmpty() async throws -> Bool {
        try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM person") == 0 }
    }

    /// Everyone, owners first, then by name.
    public func people() async throws -> [Person] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM person ORDER BY isOwner DESC, name COLLATE NOCASE").map(Self.person)
        }
    }

    /// The person with this id, if they still exist.
    public func person(id: PersonID) async throws -> Person? {
        try await writer.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM person WHERE id = ?", arguments: [id.rawValue]).map(Self.person)
        }
    }

    /// The person with this name (any case), if there is one.
    public func person(named name: String) async throws -> Person? {
        try await writer.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM person WHERE name = ? COLLATE NOCASE", arguments: [name]).map(Self.person)
        }
    }

    /// Adds a person. The first person of a Pocket is always an owner, whatever `isOwner` says.
    /// With `onlyIfFirst` (the one-time setup link), refuses with `alreadySetUp` once anyone
    /// exists, checked inside the insert's transaction, so setup links posted at once make one owner.
    public func addPerson(name: String, password: String, isOwner: Bool, onlyIfFirst: Bool = false, at date: Date = Date()) async throws -> Person {
        let name = try Self.validatedName(name)
        try Self.validate(password: password)
        let hash = try await hash(password)
        return try await writer.write { db in
            let isFirst = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM person") == 0
            if onlyIfFirst, !isFirst { throw PeopleError.alreadySetUp }
            if try Row.fetchOne(db, sql: "SELECT 1 FROM person WHERE name = ? COLLATE NOCASE", arguments: [name]) != nil {
                throw PeopleError.nameTaken(name)
            }
            try db.execute(
                sql: "INSERT INTO person(name, passwordHash, isOwner, createdAt) VALUES (?, ?, ?, ?)",
                arguments: [name, hash, isOwner || isFirst, date]
            )
            return Person(id: PersonID(rawValue: db.lastInsertedRowID), name: name, isOwner: isOwner || isFirst, createdAt: date)
        }
    }

    /// Removes a person and signs out all of their devices, and says who that was (their data in
    /// the apps goes by their id). The last owner cannot be removed.
    @discardableResult
    public func removePerson(named name: String) async throws -> Person {
        try await writer.write { db in
            guard let person = try Row.fetchOne(db, sql: "SELECT * FROM person WHERE name = ? COLLATE NOCASE", arguments: [name]).map(Self.person) else {
                throw PeopleError.unknownPerson(name)
            }
            if person.isOwner, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM person WHERE isOwner") == 1 {
                throw PeopleError.lastOwner(person.name)
            }
            // Devices, their sessions and pairing codes go with the person (foreign keys cascade).
            try db.execute(sql: "DELETE FROM person WHERE id = ?", arguments: [person.id.rawValue])
            return person
        }
    }

    /// Sets a new password and signs out every device of the person, so an old password's
    /// sessions end with it.
    public func setPassword(named name: String, to password: String) async throws {
        try Self.validate(password: password)
        let hash = try await hash(password)
        try await writer.write { db in
            guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM person WHERE name = ? COLLATE NOCASE", arguments: [name]) else {
                throw PeopleError.unknownPerson(name)
            }
            try db.execute(sql: "UPDATE person SET passwordHash = ? WHERE id = ?", arguments: [hash, id])
            try db.execute(sql: "DELETE FROM device WHERE personID = ?", arguments: [id])
        }
    }

    /// The person if `password` is theirs, else nil. An unknown name costs as much time as a
    /// wrong password, so timing does not tell which names exist.
    public func verify(name: String, password: String) async throws -> Person? {
        let found = try await writer.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM person WHERE name = ? COLLATE NOCASE", arguments: [name]).map { row in
                (try Self.person(row), try row.decode(String.self, forColumn: "passwordHash"))
            }
        }
        let hash = found?.1 ?? Self.decoyHash
        let matches = await Task.detached(priority: .userInitiated) { Bcrypt.verify(password, hash: hash) }.value
        return matches ? found?.0 : nil
    }

    // MARK: Private

    private func hash(_ password: String) async throws -> String {
        let cost = passwordCost
        return await Task.detached(priority: .userInitiated) { Bcrypt.hash(password, cost: cost) }.value
    }

    /// A bcrypt hash of nothing anyone can type, checked against when the name is unknown.
    private static let decoyHash = Bcrypt.hash(UUID().uuidString, cost: 10)

    static func person(_ row: Row) throws -> Person {
        Person(id: PersonID(rawValue: try row.decode(forColumn: "id")), name: try row.decode(forColumn: "name"),
               isOwner: try row.decode(forColumn: "isOwner"), createdAt: try row.decode(forColumn: "createdAt"))
    }

    static func validatedName(_ raw: String) throws -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw PeopleError.invalidName("it is empty") }
        guard name.count <= 40 else { throw PeopleError.invalidName("it is longer than 40 characters") }
        guard !name.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw PeopleError.invalidName("it has control characters")
        }
        return name
    }

    static func validate(password: String) throws {
        guard password.count >= 8 else { throw PeopleError.invalidPassword("it needs at least 8 characters") }
        // bcrypt reads at most 72 bytes and stops at a NUL: refuse rather than silently ignore the rest.
        guard password.utf8.count <= 72 else { throw PeopleError.invalidPassword("it is longer than 72 bytes") }
        guard !password.utf8.contains(0) else { throw PeopleError.invalidPassword("it contains a NUL character") }
    }
}
