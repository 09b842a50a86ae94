#if PostgreSQL
import Foundation
@_spi(Internals) import TriggerEngine
internal import PostgresNIO

/// The migration to schema version 2: the JSON in `te_pending.request`,
/// `te_delivered.request`, `te_categories.category` and `te_event_fires.fire`,
/// written with the public types' `Codable` in version 1 (`LegacyJSON`), is
/// rewritten in the store's own forms (`StoredRequest`, `StoredCategory`,
/// `StoredEventFire`), the ones the SQLite store writes too.
///
/// It runs inside the migration's transaction: a value that does not decode
/// stops the migration with an error naming its row, and the database stays
/// at version 1, untouched, for a build that can read it.
extension PostgresStore {
    static func migrateToStoredForms(_ connection: PostgresConnection, logger: Logger) async throws {
        for column in storedColumns {
            let (keys, values) = try await rewritten(connection, logger, column)
            // Table and column names are this file's constants; the values are bound.
            var query = PostgresQuery(unsafeSQL: """
                UPDATE \(column.table) t SET \(column.column) = u.v FROM unnest($1::text[], $2::text[]) AS u(k, v)
                WHERE t.\(column.key)::text = u.k
                """)
            query.binds.append(keys, context: .default)
            query.binds.append(values, context: .default)
            try await connection.query(query, logger: logger)
        }
    }

    /// A JSON column of version 1 and how its values become the stored form.
    private struct StoredColumn: Sendable {
        var table: String, key: String, column: String, what: String
        var convert: @Sendable (Data) throws -> String
    }

    private static let storedColumns = [
        StoredColumn(table: "te_pending", key: "identifier", column: "request", what: "pending request") {
            try StoreJSON.text(StoredRequest(LegacyJSON.request($0)))
        },
        StoredColumn(table: "te_delivered", key: "id", column: "request", what: "delivered notification") {
            try StoreJSON.text(StoredRequest(LegacyJSON.request($0)))
        },
        StoredColumn(table: "te_categories", key: "identifier", column: "category", what: "category") {
            try StoreJSON.text(StoredCategory(LegacyJSON.category($0)))
        },
        StoredColumn(table: "te_event_fires", key: "id", column: "fire", what: "event fire") {
            try StoreJSON.text(StoredEventFire(LegacyJSON.eventFire($0)))
        },
    ]

    /// Each row of `column` (its key as text) with its value converted.
    /// - Throws: `DataError` naming the row whose value does not convert.
    private static func rewritten(_ connection: PostgresConnection, _ logger: Logger,
                                  _ column: StoredColumn) async throws -> ([String], [String]) {
        var keys: [String] = [], values: [String] = []
        let sql = "SELECT \(column.key)::text, \(column.column) FROM \(column.table)"
        let rows = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        for try await (key, json) in rows.decode((String, String).self) {
            do {
                values.append(try column.convert(Data(json.utf8)))
            } catch {
                throw DataError("stored \(column.what) '\(key)' does not migrate to schema version \(schemaVersion): \(error)")
            }
            keys.append(key)
        }
        return (keys, values)
    }
}
#endif
