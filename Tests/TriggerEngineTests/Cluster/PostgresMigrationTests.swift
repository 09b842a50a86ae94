#if PostgreSQL
import Foundation
import GRDB
import Testing
@_spi(Internals) @testable import TriggerEngine
@testable import TriggerEngineCluster

/// PostgreSQL schema version 1 (the public types' JSON in its text columns) to
/// version 2 (the store's own forms), with the literal version 4 values of
/// `version4.sqlite`, which the SQLite store wrote in the same JSON.
@Suite("PostgreSQL schema migration", .serialized)
struct PostgresMigrationTests {
    /// Runs `sql` in the database through `psql`.
    static func psql(_ url: PostgresURL, _ sql: String) throws {
        let result = TestPostgres.run("/usr/bin/env", ["psql", "-q", "-v", "ON_ERROR_STOP=1", url.description, "-c", sql])
        guard result.status == 0 else { throw TestPostgresError("psql failed: \(result.stderr)") }
    }

    static func literal(_ text: String) -> String { "$json$\(text)$json$" }

    /// A fresh database created at version 2, then put back to version 1 with
    /// the fixture's version 1 rows (and `extra` SQL).
    static func versionOneDatabase(extra: String = "") async throws -> PostgresURL {
        let url = try TestPostgres.freshDatabase()
        try await TestPostgres.store(url).close()
        let fixture = Bundle.module.url(forResource: "version4.sqlite", withExtension: nil, subdirectory: "Fixtures/store")!
        let legacy = try DatabaseQueue(path: fixture.path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        let (delivered, categories, fires) = try legacy.read { db in
            (try Row.fetchAll(db, sql: "SELECT identifier, recipient, date, CAST(json AS TEXT) FROM delivered WHERE identifier != 'garbage' ORDER BY id"),
             try Row.fetchAll(db, sql: "SELECT identifier, CAST(json AS TEXT) FROM categories"),
             try Row.fetchAll(db, sql: "SELECT id, identifier, due, CAST(json AS TEXT) FROM event_fires ORDER BY rowid"))
        }
        var sql = "BEGIN; UPDATE te_schema SET version = 1;"
        // The delivered requests serve as pending ones too: version 1 kept both as the same JSON.
        for (order, row) in delivered.enumerated() {
            let (identifier, recipient, json): (String, String, String) = (row[0], row[1], row[3])
            sql += """
                INSERT INTO te_pending(identifier, recipient, request, category, next_fire, added, is_location, add_order)
                VALUES ('\(identifier)', '\(recipient)', \(literal(json)), '', 1767300000, 1767225600, false, \(order + 1));
                INSERT INTO te_delivered(identifier, recipient, date, request)
                VALUES ('\(identifier)', '\(recipient)', \(row[2] as Double), \(literal(json)));
                """
        }
        for row in categories {
            sql += "INSERT INTO te_categories(identifier, category) VALUES ('\(row[0] as String)', \(literal(row[1])));"
        }
        for row in fires {
            sql += """
                INSERT INTO te_event_fires(id, identifier, recipient, due, fire)
                VALUES ('\(row[0] as String)', '\(row[1] as String)', '', \(row[2] as Double), \(literal(row[3])));
                """
        }
        try psql(url, sql + extra + "COMMIT;")
        return url
    }

    @Test func versionOneDatabaseIsMigratedToTheStoredForms() async throws {
        let url = try await Self.versionOneDatabase()
        let store = try await TestPostgres.store(url)
        defer { store.close() }
        let pending = try await store.loadPendingRecords()
        #expect(pending.map(\.request.identifier) == ["standup", "water"])
        let delivered = try await store.loadDeliveredNotifications()
        #expect(pending.map(\.request) == delivered.map(\.request))
        // The same values as the SQLite store's migration reads from the same JSON.
        let sqliteFixture = try NotificationStore(path: Bundle.module.url(
            forResource: "version4.sqlite", withExtension: nil, subdirectory: "Fixtures/store")!.path.copiedToTemporary())
        #expect(delivered == (try sqliteFixture.loadDelivered()))
        #expect(try await store.loadNotificationCategories() == (try sqliteFixture.loadCategories()))
        #expect(try await store.loadPendingEventFires() == (try sqliteFixture.loadEventFires()))
        try StoredFormsTests.expectVersionFourContents(
            pending: try sqliteFixture.loadPending(), delivered: delivered,
            categories: try await store.loadNotificationCategories(), fires: try await store.loadPendingEventFires())
        try sqliteFixture.close()
        // A second node opening the migrated database changes nothing.
        let second = try await TestPostgres.store(url)
        defer { second.close() }
        #expect(try await second.loadDeliveredNotifications() == delivered)
    }

    /// A value that does not decode stops the migration, names its row, and
    /// leaves the database at version 1 with every row as it was.
    @Test func anUndecodableValueStopsTheMigrationAndChangesNothing() async throws {
        let url = try await Self.versionOneDatabase(extra: """
            INSERT INTO te_categories(identifier, category) VALUES ('BROKEN', '{"identifier":"BROKEN","options":["loud"]}');
            """)
        await #expect {
            try await TestPostgres.store(url).close()
        } throws: { error in
            "\(error)".contains("stored category 'BROKEN' does not migrate to schema version 2")
        }
        let check = TestPostgres.run("/usr/bin/env", ["psql", "-tA", url.description, "-c",
            "SELECT version, (SELECT count(*) FROM te_pending WHERE request LIKE '{\"identifier\"%') FROM te_schema"])
        #expect(check.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1|2", "\(check)")
    }
}

extension String {
    /// A copy of the file at this path in the temporary folder (the fixture stays as it is).
    fileprivate func copiedToTemporary() throws -> String {
        let copy = NotificationStoreTests.temporaryPath()
        try FileManager.default.copyItem(atPath: self, toPath: copy)
        return copy
    }
}
#endif
