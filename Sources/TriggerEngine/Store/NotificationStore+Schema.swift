import Foundation
internal import GRDB

/// The store's tables and their migration, versioned with SQLite's `user_version`.
///
/// - Version 0/1 (files written before `user_version` was set): each pending
///   request one JSON blob.
/// - Version 2: pending requests in columns, device tokens.
/// - Version 3: calendar, location and recurrence triggers once each in
///   `triggers`, referred to by id from `pending` (`PendingTable`).
/// - Version 4: `event_fires` (location and push fires taken but not yet
///   handed over), and a `set_aside` column in `pending`, `delivered`,
///   `categories` and `event_fires`: a row that does not decode is kept with
///   its error instead of refusing the whole store.
/// - Version 5: the JSON in `delivered`, `categories`, `event_fires` and a
///   location trigger's `parameters` is the store's own (`StoredRequest`,
///   `StoredCategory`, `StoredEventFire`, `StoredLocation`) instead of the
///   public types' `Codable`, the command line's JSON (`LegacyJSON`); see
///   `NotificationStore+StoredForms`. `user_info` is plain JSON, as before.
///
/// A file of an older version is migrated in place, in one transaction, when it
/// is opened; a file of a newer version is refused with a clear error rather
/// than misread.
extension NotificationStore {
    /// The schema version this build writes.
    package static let schemaVersion = 5

    /// The tables that keep rows which do not decode (`set_aside` holds the error).
    static let setAsideTables = ["pending", "delivered", "categories", "event_fires"]

    static func prepareSchema(_ db: Database) throws {
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        guard version <= schemaVersion else {
            throw DataError("the store has schema version \(version); this build reads versions up to \(schemaVersion)")
        }
        guard version < schemaVersion else { return }
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS delivered(
                id INTEGER PRIMARY KEY AUTOINCREMENT, identifier TEXT NOT NULL,
                recipient TEXT NOT NULL, date REAL NOT NULL, json BLOB NOT NULL);
            CREATE INDEX IF NOT EXISTS delivered_identifier ON delivered(identifier);
            CREATE TABLE IF NOT EXISTS categories(identifier TEXT PRIMARY KEY NOT NULL, json BLOB NOT NULL);
            CREATE TABLE IF NOT EXISTS authorization(
                recipient TEXT PRIMARY KEY NOT NULL, status TEXT NOT NULL, options INTEGER NOT NULL);
            CREATE TABLE IF NOT EXISTS device_tokens(
                recipient TEXT NOT NULL, token TEXT NOT NULL, PRIMARY KEY(recipient, token));
            CREATE TABLE IF NOT EXISTS event_fires(
                id TEXT PRIMARY KEY NOT NULL, identifier TEXT NOT NULL, due REAL NOT NULL, json BLOB NOT NULL);
            CREATE INDEX IF NOT EXISTS event_fires_identifier ON event_fires(identifier);
            """)
        if try !db.tableExists("pending") {
            try db.execute(sql: PendingTable.create)
        } else if version >= 3 {
            // Version 3 or 4 → 5: the pending rows stay as they are.
        } else if version == 2 {
            try migratePendingFromVersion2(db)
        } else {
            try migratePendingFromJSON(db)
        }
        for table in setAsideTables where try !db.columns(in: table).contains(where: { $0.name == "set_aside" }) {
            try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN set_aside TEXT")
        }
        try migrateToStoredForms(db)
        try db.execute(sql: "PRAGMA user_version = \(schemaVersion)")
    }

    /// Version 1 → 5: decodes each JSON row and writes it in columns, keeping the add order.
    private static func migratePendingFromJSON(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE pending RENAME TO pending_v1")
        try db.execute(sql: PendingTable.create)
        var writer = try PendingRowWriter(db)
        let rows = try Row.fetchCursor(db, sql: "SELECT identifier, recipient, next_fire, json FROM pending_v1 ORDER BY rowid")
        while let row = try rows.next() {
            let request: NotificationRequest
            do { request = try LegacyJSON.request(row[3] as Data) } catch {
                throw DataError("stored request '\(row[0] as String)' does not decode: \(error)")
            }
            let fire: Double? = row[2]
            try writer.save(ScheduledRequest(request: request, recipient: row[1],
                                          nextFire: fire.map { Date(timeIntervalSince1970: $0) }))
        }
        try db.execute(sql: "DROP TABLE pending_v1")
    }

    /// Version 2 → 5, in SQL: the distinct shared triggers of the version 2 rows
    /// go to `triggers` under the key version 2 computed, and each row refers to its own.
    private static func migratePendingFromVersion2(_ db: Database) throws {
        let copied = ["identifier", "recipient", "next_fire", "added", "misfire", "kind", "repeats", "interval", "title",
                      "subtitle", "body", "badge", "sound", "category", "thread", "user_info"]
        let text = ["zone", "parameters", "start", "exdates", "rdates"]
        try db.execute(sql: "ALTER TABLE pending RENAME TO pending_v2")
        try db.execute(sql: PendingTable.create)
        try db.execute(sql: """
            INSERT OR IGNORE INTO triggers(key, kind, repeats, \(text.joined(separator: ", ")))
            SELECT \(TriggerColumns.sqlKey(of: "pending_v2")), kind, repeats, \(text.joined(separator: ", "))
            FROM pending_v2 WHERE kind IN (1, 3, 4) ORDER BY rowid;
            INSERT INTO pending(\(copied.joined(separator: ", ")), trigger)
            SELECT \(copied.joined(separator: ", ")),
                   CASE WHEN kind IN (1, 3, 4)
                        THEN (SELECT id FROM triggers WHERE key = \(TriggerColumns.sqlKey(of: "pending_v2"))) END
            FROM pending_v2 ORDER BY rowid;
            DROP TABLE pending_v2;
            """)
    }
}
