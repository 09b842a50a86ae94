import Foundation
internal import GRDB

/// Rows that do not decode. A store written by an older build, a zone that left
/// the system's time-zone data, a hand-edited file: one bad row must not make
/// the whole store unopenable. It is set aside — kept as it is, with its error
/// in its `set_aside` column — and skipped by every load; the rest opens, and
/// the center reports what was set aside (`UserNotificationCenter.setAsideRecords`).
extension NotificationStore {
    /// A row kept out of use because it does not decode.
    public struct SetAsideRecord: Sendable, Hashable, CustomStringConvertible {
        /// The table it is in (`pending`, `delivered`, `categories`, `event_fires`).
        public var table: String
        /// Its key: a request or category identifier, a delivered row's number, an event fire's ID.
        public var key: String
        /// Why it does not decode.
        public var error: String

        public var description: String { "\(table) '\(key)': \(error)" }
    }

    /// Every row set aside, now or by an earlier open.
    package func loadSetAside() throws -> [SetAsideRecord] {
        try database.read { db in
            var records: [SetAsideRecord] = []
            let keys = ["pending": "identifier", "delivered": "id", "categories": "identifier", "event_fires": "id"]
            for table in Self.setAsideTables {
                let sql = "SELECT CAST(\(keys[table]!) AS TEXT), set_aside FROM \(table) WHERE set_aside IS NOT NULL ORDER BY rowid"
                for row in try Row.fetchAll(db, sql: sql) {
                    records.append(SetAsideRecord(table: table, key: (row[0] as StoredText).string, error: row[1]))
                }
            }
            return records
        }
    }

    /// Marks `rows` (by the value of `keyColumn`) as set aside with their errors.
    func setAside(_ rows: [(key: String, error: String)], in table: String, keyColumn: String) throws {
        guard !rows.isEmpty else { return }
        try database.write { db in
            let mark = try db.makeStatement(sql: "UPDATE \(table) SET set_aside = ? WHERE \(keyColumn) = ?")
            for row in rows { try mark.execute(arguments: [row.error, row.key]) }
        }
    }

    /// The rows of `sql` (the key first) decoded by `decode`; those that do not
    /// decode are set aside.
    func loadDecoding<T>(sql: String, table: String, keyColumn: String, _ decode: (Row) throws -> T) throws -> [T] {
        let (values, undecodable) = try database.read { db in
            var values: [T] = []
            var undecodable: [(key: String, error: String)] = []
            for row in try Row.fetchAll(db, sql: sql) {
                do {
                    values.append(try decode(row))
                } catch {
                    undecodable.append(((row[0] as StoredText).string, "\(error)"))
                }
            }
            return (values, undecodable)
        }
        try setAside(undecodable, in: table, keyColumn: keyColumn)
        return values
    }
}
