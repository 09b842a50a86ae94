import Foundation
internal import GRDB

/// The migration to schema version 5: every JSON value the store wrote with the
/// public types' `Codable` (`LegacyJSON`) is rewritten in the store's own form.
///
/// A value that is already in the stored form is left alone, which makes the
/// step safe to run on the rows an earlier step of the same migration wrote
/// (version 1's pending rows go through `PendingRowWriter`). A row that does
/// not decode is set aside with its error, as a load would do; a location
/// trigger that does not decode sets aside the pending rows that use it.
extension NotificationStore {
    static func migrateToStoredForms(_ db: Database) throws {
        try rewriteJSON(db, table: "delivered", key: "id") { try StoredRequest(LegacyJSON.request($0)) }
        try rewriteJSON(db, table: "categories", key: "identifier") { StoredCategory(try LegacyJSON.category($0)) }
        try rewriteJSON(db, table: "event_fires", key: "id") { try StoredEventFire(LegacyJSON.eventFire($0)) }
        try rewriteLocationTriggers(db)
    }

    /// Replaces each `json` of `table` that is not yet a `Stored` value by
    /// `convert`'s stored form of it.
    private static func rewriteJSON<Stored: Codable>(_ db: Database, table: String, key: String,
                                                     _ convert: (Data) throws -> Stored) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT \(key), json FROM \(table) WHERE set_aside IS NULL")
        let update = try db.makeStatement(sql: "UPDATE \(table) SET json = ? WHERE \(key) = ?")
        let setAside = try db.makeStatement(sql: "UPDATE \(table) SET set_aside = ? WHERE \(key) = ?")
        for row in rows {
            let keyValue: DatabaseValue = row[0]
            let json: Data = row[1]
            if (try? StoreJSON.decode(Stored.self, from: json)) != nil { continue }
            do {
                try update.execute(arguments: [try StoreJSON.encode(convert(json)), keyValue])
            } catch {
                try setAside.execute(arguments: ["does not migrate to schema version \(schemaVersion): \(error)", keyValue])
            }
        }
    }

    /// Location triggers (kind 3): `parameters` becomes `StoredLocation`'s JSON
    /// and `key` follows it. Two old rows that now have one key (old JSON that
    /// differed only in form) become one, and their pending rows share it.
    private static func rewriteLocationTriggers(_ db: Database) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT id, repeats, parameters FROM triggers WHERE kind = 3")
        for row in rows {
            let id: Int64 = row[0]
            let text: String = row[2] ?? ""
            if (try? StoredLocation(text: text)) != nil { continue }
            var columns = TriggerColumns()
            do {
                let trigger = try LegacyJSON.locationTrigger(text)
                columns = try TriggerColumns(.location(trigger))
                columns.repeats = row[1]
            } catch {
                try db.execute(sql: "UPDATE pending SET set_aside = ? WHERE trigger = ? AND set_aside IS NULL",
                               arguments: ["its location trigger does not migrate to schema version \(schemaVersion): \(error)", id])
                continue
            }
            if let existing = try Int64.fetchOne(db, sql: "SELECT id FROM triggers WHERE key = ?", arguments: [columns.key]),
               existing != id {
                try db.execute(sql: "UPDATE pending SET trigger = ? WHERE trigger = ?", arguments: [existing, id])
                try db.execute(sql: "DELETE FROM triggers WHERE id = ?", arguments: [id])
            } else {
                try db.execute(sql: "UPDATE triggers SET parameters = ?, key = ? WHERE id = ?",
                               arguments: [columns.parameters, columns.key, id])
            }
        }
    }
}
