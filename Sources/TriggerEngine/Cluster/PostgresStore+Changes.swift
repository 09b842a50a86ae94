#if PostgreSQL
import Foundation
import PostgresNIO

/// `StoreChange`s in PostgreSQL: what each means is what it means in SQLite
/// (`StoreChange.apply`), so a center can commit to either. Batches go as
/// arrays (`unnest`), one statement each, not one statement per row.
extension PostgresStore: CenterPersistence {
    func write(_ changes: [StoreChange]) async throws {
        for change in changes { try change.validate() }
        let encoder = JSONEncoder()
        // An add (its event fires dropped, its rows saved) is one statement,
        // atomic on its own: one round trip instead of five.
        if changes.count == 2, case .dropEventFires(let dropped) = changes[0], case .savePending(let records) = changes[1] {
            guard let query = try Self.saveQuery(records, dropping: dropped, encoder) else { return }
            try await run(query)
            return
        }
        try await transaction { connection in
            for change in changes { try await apply(change, connection, encoder) }
        }
    }

    func apply(_ change: StoreChange, _ connection: PostgresConnection, _ encoder: JSONEncoder) async throws {
        switch change {
        case .savePending(let records):
            try await savePending(records, connection, encoder)
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
            let request = try Self.json(notification.request, encoder)
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
            let json = try categories.map { try Self.json($0, encoder) }
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
            let json = try Self.json(fire, encoder)
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

    /// Inserts or replaces pending requests. A replaced request goes to the end
    /// of the add order, gets a new generation and loses any claim on it: a node
    /// delivering the old one can no longer move it on.
    private func savePending(_ records: [NotificationStore.PendingRecord], _ connection: PostgresConnection,
                             _ encoder: JSONEncoder) async throws {
        guard let query = try Self.saveQuery(records, dropping: [], encoder) else { return }
        try await connection.query(query, logger: logger)
    }

    /// The statement that saves `records` (data-modifying CTEs: the event fires
    /// of `dropped` go, the rows are upserted, the location counter moves when a
    /// location request is among them, and every node is woken); nil when there is nothing to save.
    private static func saveQuery(_ records: [NotificationStore.PendingRecord], dropping dropped: [String],
                                  _ encoder: JSONEncoder) throws -> PostgresQuery? {
        // One statement cannot touch a row twice: a request listed twice keeps its last add, at that place.
        var last: [String: Int] = [:]
        for (index, record) in records.enumerated() { last[record.request.identifier] = index }
        let kept = records.indices.filter { last[records[$0].request.identifier] == $0 }.map { records[$0] }
        guard !kept.isEmpty else { return nil }
        for record in kept { try StoredText.checkKey(record.request.content.categoryIdentifier, "category identifier") }
        // Arrays of optionals do not bind: NaN stands for NULL.
        let identifiers = kept.map(\.request.identifier)
        let recipients = kept.map(\.recipient)
        let requests = try kept.map { try json($0.request, encoder) }
        let categories = kept.map(\.request.content.categoryIdentifier)
        let fires = kept.map { $0.nextFire?.storedSeconds ?? .nan }
        let added = kept.map { $0.request.added?.storedSeconds ?? .nan }
        let locations = kept.map { if case .location? = $0.request.trigger { true } else { false } }
        // The channel's payload; empty when nothing fires on the clock (no one to wake).
        let wake = kept.compactMap(\.nextFire).min().map { String($0.storedSeconds) } ?? ""
        return """
            WITH dropped AS (DELETE FROM te_event_fires WHERE identifier = ANY(\(dropped)::text[])),
            saved AS (
                INSERT INTO te_pending(identifier, recipient, request, category, next_fire, added, is_location, add_order)
                SELECT i, r, q, c, NULLIF(f, 'NaN'), NULLIF(a, 'NaN'), l, nextval('te_pending_add_order')
                FROM unnest(\(identifiers)::text[], \(recipients)::text[], \(requests)::text[], \(categories)::text[],
                            \(fires)::float8[], \(added)::float8[], \(locations)::boolean[]) WITH ORDINALITY AS u(i, r, q, c, f, a, l, n)
                ORDER BY n
                ON CONFLICT (identifier) DO UPDATE SET recipient = excluded.recipient, request = excluded.request,
                    category = excluded.category, next_fire = excluded.next_fire, added = excluded.added,
                    is_location = excluded.is_location, add_order = excluded.add_order,
                    generation = te_pending.generation + 1, lease_owner = NULL, lease_until = NULL
                RETURNING is_location),
            counted AS (UPDATE te_counters SET value = value + 1
                        WHERE name = 'locations' AND EXISTS (SELECT 1 FROM saved WHERE is_location))
            SELECT CASE WHEN \(wake)::text = '' THEN NULL ELSE pg_notify(\(wakeChannel), \(wake)::text) END
            """
    }

    /// Inserts or replaces one category, leaving the others as they are.
    func saveCategory(_ category: NotificationCategory) async throws {
        try StoredText.checkKey(category.identifier, "category identifier")
        let json = try Self.json(category, JSONEncoder())
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

    static func json(_ value: some Encodable, _ encoder: JSONEncoder) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
#endif
