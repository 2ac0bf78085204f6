import Crypto
import Foundation
import GRDB

/// The key-value rows behind the web server's sessions (hummingbird-auth's `SessionStorage`
/// keeps them through a `PersistDriver`), stored here so a signed-in phone survives restarts.
///
/// A session's key holds the cookie's value, which signs its device in: only its SHA-256 is
/// stored (`storedKey`), so a copy of `people.sqlite` (a backup archive, say) holds nothing a
/// browser could send. The cookie's value is 128 random bits or more, so a plain hash suffices.
extension PeopleDatabase {
    /// What is stored for the session key `key`: `sha256:` and its SHA-256 in hexadecimal.
    static func storedKey(_ key: String) -> String {
        "sha256:" + SHA256.hash(data: Data(key.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Stores `value` under `key`. With `onlyIfNew`, returns false if the key exists. A nil
    /// `expires` keeps the row's expiry. `deviceID` ties the row to a device, so signing the
    /// device out deletes it.
    @discardableResult
    public func storeSession(key: String, value: Data, expires: Date?, deviceID: String?, onlyIfNew: Bool = false) async throws -> Bool {
        let key = Self.storedKey(key)
        return try await writer.write { db in
            let existing = try Row.fetchOne(db, sql: "SELECT expiresAt FROM session WHERE key = ?", arguments: [key])
            if existing != nil, onlyIfNew { return false }
            if let deviceID, try Row.fetchOne(db, sql: "SELECT 1 FROM device WHERE id = ?", arguments: [deviceID]) == nil {
                // The device was signed out while this request ran: store nothing that would revive it.
                return false
            }
            let keptExpiry = try existing.flatMap { try $0.decode(Date?.self, forColumn: "expiresAt") }
            try db.execute(
                sql: "INSERT OR REPLACE INTO session(key, value, expiresAt, deviceID) VALUES (?, ?, ?, ?)",
                arguments: [key, value, expires ?? keptExpiry, deviceID]
            )
            return true
        }
    }

    /// The stored value and its expiry, or nil if there is none or it has expired.
    public func loadSession(key: String, at date: Date = Date()) async throws -> (value: Data, expires: Date?)? {
        let key = Self.storedKey(key)
        let stored = if let cache {
            try await cache.session(key) { try await readSession(key: key) }
        } else {
            try await readSession(key: key)
        }
        guard let stored else { return nil }
        if let expires = stored.expires, expires <= date { return nil }
        return (stored.value, stored.expires)
    }

    private func readSession(key: String) async throws -> SignInCache.StoredSession? {
        try await writer.read { db in
            try Row.fetchOne(db, sql: "SELECT value, expiresAt FROM session WHERE key = ?", arguments: [key]).map { row in
                SignInCache.StoredSession(value: try row.decode(forColumn: "value"), expires: try row.decode(forColumn: "expiresAt"))
            }
        }
    }

    /// Deletes a stored session.
    public func removeSession(key: String) async throws {
        try await writer.write { db in try db.execute(sql: "DELETE FROM session WHERE key = ?", arguments: [Self.storedKey(key)]) }
    }

    /// Deletes expired sessions and pairing codes (run at start-up, before serving).
    public func purgeExpiredNow(at date: Date = Date()) throws {
        try writer.write { db in
            try db.execute(sql: "DELETE FROM session WHERE expiresAt <= ?", arguments: [date])
            try db.execute(sql: "DELETE FROM pairing WHERE expiresAt <= ?", arguments: [date])
        }
    }
}

extension PeopleDatabase {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: people, devices, pairing codes, sessions") { db in
            try db.execute(sql: """
                -- AUTOINCREMENT: ids are never reused, so a removed person's data never reaches a new one.
                CREATE TABLE person(
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
                    passwordHash TEXT NOT NULL,
                    isOwner BOOLEAN NOT NULL,
                    createdAt DATETIME NOT NULL
                );
                CREATE TABLE device(
                    id TEXT PRIMARY KEY NOT NULL,
                    personID INTEGER NOT NULL REFERENCES person(id) ON DELETE CASCADE,
                    name TEXT NOT NULL,
                    csrfToken TEXT NOT NULL,
                    firstSeen DATETIME NOT NULL,
                    lastSeen DATETIME NOT NULL
                );
                CREATE INDEX device_person ON device(personID);
                CREATE TABLE pairing(
                    linkHash TEXT NOT NULL UNIQUE,
                    shortHash TEXT NOT NULL UNIQUE,
                    personID INTEGER NOT NULL REFERENCES person(id) ON DELETE CASCADE,
                    expiresAt DATETIME NOT NULL
                );
                CREATE TABLE session(
                    key TEXT PRIMARY KEY NOT NULL,
                    value BLOB NOT NULL,
                    expiresAt DATETIME,
                    deviceID TEXT REFERENCES device(id) ON DELETE CASCADE
                );
                CREATE INDEX session_device ON session(deviceID);
                """)
        }
        // Keys stored before were the cookies' values: each becomes its hash, so everyone signed in stays signed in.
        migrator.registerMigration("v2: session keys stored hashed") { db in
            for key in try String.fetchAll(db, sql: "SELECT key FROM session WHERE key NOT LIKE 'sha256:%'") {
                try db.execute(sql: "UPDATE session SET key = ? WHERE key = ?", arguments: [storedKey(key), key])
            }
        }
        return migrator
    }
}
