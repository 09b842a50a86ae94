#if PostgreSQL
import Foundation
@_spi(Internals) import TriggerEngine
internal import PostgresNIO

/// `StoreChange`s in PostgreSQL: what each means is what it means in SQLite
/// (`StoreChange.apply`), so a center can commit to either. Batches go as
/// arrays (`unnest`), one statement each, not one statement per row.
extension PostgresStore: CenterPersistence {
    package func write(_ changes: [StoreChange]) async throws {
        for change in changes { try change.validate() }
        // An add (its event fires dropped, its rows saved) is one statement,
        // atomic on its own: one round trip instead of five.
        if changes.count == 2, case .dropEventFires(let dropped) = changes[0], case .savePending(let records) = changes[1] {
            guard let statement = try SavePendingStatement(records, dropping: dropped) else { return }
            do {
                for try await _ in try await client.execute(statement, logger: logger) {}
            } catch {
                throw StoreError(classifyingPostgres: error)
            }
            return
        }
        try await transaction { connection in
            for change in changes { try await apply(change, connection) }
        }
    }

    func apply(_ change: StoreChange, _ connection: PostgresConnection) async throws {
        switch change {
        case .savePending(let records):
            try await savePending(records, connection)
        case .removePending(let identifiers):
            try await connection.query("""
                WITH gone AS (DELETE FROM te_pending WHERE identifier = ANY(\(identifiers)) RETURNING is_location)
                UPDATE te_counters SET value = value + 1
                WHERE name = 'locations' AND EXISTS (SELECT 1 FROM gone WHERE is_location)
                """, logger: logger)
        case .removeAllPending:
            try await connection.query("""
                WITH gone AS (DELETE FROM te_pending RETURNING is_location)
                UPDATE te_counters SET value = value + 1
                WHERE name = 'locations' AND EXISTS (SELECT 1 FROM gone WHERE is_location)
                """, logger: logger)
        case .firedPending(let identifier, let added, let due, let nextFire):
            let added = added?.storedSeconds
            if let next = nextFire?.storedSeconds {
                try await connection.query("""
                    UPDATE te_pending SET next_fire = \(next), lease_owner = NULL, lease_until = NULL
                    WHERE identifier = \(identifier) AND added IS NOT DISTINCT FROM \(added) AND next_fire = \(due.storedSeconds)
                    """, logger: logger)
            } else {
                try await connection.query("""
                    DELETE FROM te_pending
                    WHERE identifier = \(identifier) AND added IS NOT DISTINCT FROM \(added) AND next_fire = \(due.storedSeconds)
                    """, logger: logger)
            }
        case .insertDelivered(let notification):
            let request = try StoreJSON.text(StoredRequest(notification.request))
            try await connection.query("""
                INSERT INTO te_delivered(identifier, recipient, date, request)
                VALUES (\(notification.request.identifier), \(notification.recipient), \(notification.date.storedSeconds), \(request))
                """, logger: logger)
        case .removeDelivered(let identifiers):
            if let identifiers {
                try await connection.query("DELETE FROM te_delivered WHERE identifier = ANY(\(identifiers))", logger: logger)
            } else {
                try await connection.query("DELETE FROM te_delivered", logger: logger)
            }
        case .saveCategories(let categories):
            let json = try categories.map { try StoreJSON.text(StoredCategory($0)) }
            try await connection.query("DELETE FROM te_categories", logger: logger)
            try await connection.query("""
                INSERT INTO te_categories(identifier, category)
                SELECT * FROM unnest(\(categories.map(\.identifier))::text[], \(json)::text[])
                """, logger: logger)
        case .saveSettings(let settings, let recipient):
            try await connection.query("""
                INSERT INTO te_authorization(recipient, status, options)
                VALUES (\(recipient), \(settings.authorizationStatus.rawValue), \(Int64(settings.options.rawValue)))
                ON CONFLICT (recipient) DO UPDATE SET status = excluded.status, options = excluded.options
                """, logger: logger)
        case .saveDeviceTokens(let tokens, let recipient):
            try await connection.query("DELETE FROM te_device_tokens WHERE recipient = \(recipient)", logger: logger)
            try await connection.query("""
                INSERT INTO te_device_tokens(recipient, token) SELECT \(recipient), unnest(\(tokens.sorted())::text[])
                """, logger: logger)
        case .insertEventFire(let fire):
            let json = try StoreJSON.text(StoredEventFire(fire))
            try await connection.query("""
                INSERT INTO te_event_fires(id, identifier, recipient, due, fire)
                VALUES (\(fire.id.rawValue), \(fire.request.identifier), \(fire.recipient), \(fire.due.storedSeconds), \(json))
                ON CONFLICT (id) DO UPDATE SET identifier = excluded.identifier, recipient = excluded.recipient,
                    due = excluded.due, fire = excluded.fire, lease_owner = NULL, lease_until = NULL
                """, logger: logger)
            try await notifyWake(at: fire.due, connection)
        case .deleteEventFire(let id):
            try await connection.query("DELETE FROM te_event_fires WHERE id = \(id.rawValue)", logger: logger)
        case .dropEventFires(let identifiers):
            try await connection.query("DELETE FROM te_event_fires WHERE identifier = ANY(\(identifiers))", logger: logger)
        }
    }

    /// Inserts or replaces pending requests (`SavePendingStatement`).
    private func savePending(_ records: [ScheduledRequest], _ connection: PostgresConnection) async throws {
        guard let statement = try SavePendingStatement(records, dropping: []) else { return }
        for try await _ in try await connection.execute(statement, logger: logger) {}
    }

    /// Inserts or replaces one category, leaving the others as they are.
    func saveCategory(_ category: NotificationCategory) async throws {
        try StoreKey.check(category.identifier, "category identifier")
        let json = try StoreJSON.text(StoredCategory(category))
        try await run("""
            INSERT INTO te_categories(identifier, category) VALUES (\(category.identifier), \(json))
            ON CONFLICT (identifier) DO UPDATE SET category = excluded.category
            """)
    }

    /// Tells every node (this one too) that a fire is due at `date`; sent when the transaction commits.
    func notifyWake(at date: Date, _ connection: PostgresConnection) async throws {
        let payload = String(date.storedSeconds)
        try await connection.query("SELECT pg_notify(\(Self.wakeChannel), \(payload))", logger: logger)
    }
}
#endif
