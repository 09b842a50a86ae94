import Foundation
import GRDB

/// The store's tables and their migration, versioned with SQLite's `user_version`.
///
/// - Version 0/1 (files written before `user_version` was set): each pending
///   request one JSON blob.
/// - Version 2: pending requests in columns (`PendingRowCodec`), device tokens.
///
/// A file of an older version is migrated in place, in one transaction, when it
/// is opened; a file of a newer version is refused with a clear error rather
/// than misread.
extension NotificationStore {
    /// The schema version this build writes.
    public static let schemaVersion = 2

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
            """)
        if try db.tableExists("pending") {
            try migratePendingFromJSON(db)
        } else {
            try db.execute(sql: PendingRowCodec.createTable)
        }
        try db.execute(sql: "PRAGMA user_version = \(schemaVersion)")
    }

    /// Version 1 → 2: decodes each JSON row and writes it in columns, keeping the add order.
    private static func migratePendingFromJSON(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE pending RENAME TO pending_v1")
        try db.execute(sql: PendingRowCodec.createTable)
        let codec = PendingRowCodec()
        let decoder = JSONDecoder()
        let insert = try db.makeStatement(sql: PendingRowCodec.insertSQL)
        let rows = try Row.fetchCursor(db, sql: "SELECT identifier, recipient, next_fire, json FROM pending_v1 ORDER BY rowid")
        while let row = try rows.next() {
            let request: NotificationRequest
            do { request = try decoder.decode(NotificationRequest.self, from: row[3] as Data) } catch {
                throw DataError("stored request '\(row[0] as String)' does not decode: \(error)")
            }
            let fire: Double? = row[2]
            try insert.execute(arguments: try codec.arguments(for: PendingRecord(
                request: request, recipient: row[1], nextFire: fire.map { Date(timeIntervalSince1970: $0) })))
        }
        try db.execute(sql: "DROP TABLE pending_v1")
    }
}
