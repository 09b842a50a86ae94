#if PostgreSQL
import Foundation
@_spi(Internals) import TriggerEngine
internal import PostgresNIO

/// Sharing the fires between nodes. A node claims due fires in a batch: each
/// row it takes gets a lease (its name and an expiry on the database's clock)
/// in the statement that selects it, `FOR UPDATE SKIP LOCKED`, so two nodes
/// never take the same row and neither waits for the other. It hands them
/// over, then finishes them in one transaction that changes only rows it
/// still holds (same generation, same lease owner): a replaced or removed
/// request stays as the replace or remove left it. A node that dies holds its
/// rows until their leases expire; then any node claims them again, and they
/// are handed over with the same `DeliveryID`.
extension PostgresStore {
    /// A claimed fire of a pending request.
    struct ClaimedFire: Sendable {
        var request: NotificationRequest
        var recipient: String
        var due: Date
        var generation: Int64
        /// The recipient's stored authorization (`nil`: not determined).
        var authorization: AuthorizationStatus?
        /// The request's category, when registered.
        var category: NotificationCategory?
    }

    /// A claimed event fire (a location fix's or a push's).
    struct ClaimedEventFire: Sendable {
        var fire: EventFire
        var authorization: AuthorizationStatus?
        var category: NotificationCategory?
    }

    /// How a claimed fire ends.
    struct Finish: Sendable {
        var identifier: String
        var generation: Int64
        /// Its next fire, `nil` when it is spent.
        var nextFire: Date?
        /// What was delivered (`nil`: the fire was spent without a delivery).
        var delivered: DeliveredNotification?
    }

    /// Claims up to `limit` pending requests due through `date`, earliest
    /// first, for `owner`, for `lease` from now (the database's now). A row
    /// that no longer decodes is parked (its `next_fire` cleared) and reported
    /// in `undecodable`.
    func claimDue(owner: String, through date: Date, limit: Int, lease: Duration) async throws
        -> (fires: [ClaimedFire], undecodable: [(identifier: String, error: String)]) {
        let rows = try await run("""
            WITH due AS (
                SELECT identifier FROM te_pending
                WHERE next_fire <= \(date.storedSeconds)
                  AND (lease_until IS NULL OR lease_until < extract(epoch from clock_timestamp()))
                ORDER BY next_fire, add_order LIMIT \(limit) FOR UPDATE SKIP LOCKED)
            UPDATE te_pending p SET lease_owner = \(owner),
                lease_until = extract(epoch from clock_timestamp()) + \(lease.seconds)
            FROM due WHERE p.identifier = due.identifier
            RETURNING p.identifier, p.recipient, p.request, p.next_fire, p.generation,
                (SELECT status FROM te_authorization a WHERE a.recipient = p.recipient),
                (SELECT category FROM te_categories c WHERE c.identifier = p.category)
            """)
        var fires: [ClaimedFire] = []
        var undecodable: [(identifier: String, error: String)] = []
        for try await (identifier, recipient, json, due, generation, status, category)
            in rows.decode((String, String, String, Double, Int64, String?, String?).self) {
            do {
                let request = try PostgresStore.decodeRequest(json, what: "pending request '\(identifier)'")
                fires.append(ClaimedFire(request: request, recipient: recipient, due: Date(storedSeconds: due),
                                         generation: generation, authorization: status.flatMap(AuthorizationStatus.init),
                                         category: try? category.map { try PostgresStore.decodeCategory($0, what: "category") }))
            } catch {
                undecodable.append((identifier, "\(error)"))
            }
        }
        if !undecodable.isEmpty {
            try await run("""
                UPDATE te_pending SET next_fire = NULL, lease_owner = NULL, lease_until = NULL
                WHERE identifier = ANY(\(undecodable.map(\.identifier)))
                """)
        }
        fires.sort { ($0.due, $0.request.identifier) < ($1.due, $1.request.identifier) }
        return (fires, undecodable)
    }

    /// Claims up to `limit` event fires due through `date` (the database's now
    /// for the lease), in the order they were taken.
    func claimEventFires(owner: String, through date: Date, limit: Int, lease: Duration) async throws -> [ClaimedEventFire] {
        let rows = try await run("""
            WITH due AS (
                SELECT id FROM te_event_fires
                WHERE due <= \(date.storedSeconds)
                  AND (lease_until IS NULL OR lease_until < extract(epoch from clock_timestamp()))
                ORDER BY due, taken LIMIT \(limit) FOR UPDATE SKIP LOCKED)
            UPDATE te_event_fires f SET lease_owner = \(owner),
                lease_until = extract(epoch from clock_timestamp()) + \(lease.seconds)
            FROM due WHERE f.id = due.id
            RETURNING f.fire, f.taken,
                (SELECT status FROM te_authorization a WHERE a.recipient = f.recipient)
            """)
        var claimed: [(taken: Int64, fire: ClaimedEventFire)] = []
        for try await (json, taken, status) in rows.decode((String, Int64, String?).self) {
            let fire = try PostgresStore.decodeEventFire(json, what: "event fire")
            claimed.append((taken, ClaimedEventFire(fire: fire, authorization: status.flatMap(AuthorizationStatus.init),
                                                    category: nil)))
        }
        claimed.sort { $0.taken < $1.taken }
        var fires = claimed.map(\.fire)
        // Categories by identifier, read once for the batch.
        let names = Set(fires.map(\.fire.request.content.categoryIdentifier).filter { !$0.isEmpty })
        if !names.isEmpty {
            let categories = try await loadCategories(named: Array(names))
            for index in fires.indices { fires[index].category = categories[fires[index].fire.request.content.categoryIdentifier] }
        }
        return fires
    }

    private func loadCategories(named names: [String]) async throws -> [String: NotificationCategory] {
        var categories: [String: NotificationCategory] = [:]
        let rows = try await run("SELECT identifier, category FROM te_categories WHERE identifier = ANY(\(names))")
        for try await (identifier, json) in rows.decode((String, String).self) {
            categories[identifier] = try? PostgresStore.decodeCategory(json, what: "category")
        }
        return categories
    }

    /// Finishes claimed fires in one transaction: a repeating request moves on
    /// to its next fire and is released, a spent one goes, the delivered
    /// notifications are added, the event fires are forgotten. Rows `owner`
    /// no longer holds are left alone.
    func finish(_ finishes: [Finish], events: [(id: DeliveryID, delivered: DeliveredNotification?)], owner: String) async throws {
        let moving = finishes.filter { $0.nextFire != nil }
        let spent = finishes.filter { $0.nextFire == nil }
        let delivered = finishes.compactMap(\.delivered) + events.compactMap(\.delivered)
        let requests = try delivered.map { try StoreJSON.text(StoredRequest($0.request)) }
        try await transaction { connection in
            if !moving.isEmpty {
                try await connection.query("""
                    UPDATE te_pending p SET next_fire = u.next, lease_owner = NULL, lease_until = NULL
                    FROM unnest(\(moving.map(\.identifier))::text[], \(moving.map(\.generation))::int8[],
                                \(moving.map { $0.nextFire!.storedSeconds })::float8[]) AS u(identifier, generation, next)
                    WHERE p.identifier = u.identifier AND p.generation = u.generation AND p.lease_owner = \(owner)
                    """, logger: logger)
                if let earliest = moving.compactMap(\.nextFire).min() { try await notifyWake(at: earliest, connection) }
            }
            if !spent.isEmpty {
                try await connection.query("""
                    DELETE FROM te_pending p
                    USING unnest(\(spent.map(\.identifier))::text[], \(spent.map(\.generation))::int8[]) AS u(identifier, generation)
                    WHERE p.identifier = u.identifier AND p.generation = u.generation AND p.lease_owner = \(owner)
                    """, logger: logger)
            }
            if !events.isEmpty {
                try await connection.query("""
                    DELETE FROM te_event_fires WHERE id = ANY(\(events.map(\.id.rawValue))) AND lease_owner = \(owner)
                    """, logger: logger)
            }
            if !delivered.isEmpty {
                try await connection.query("""
                    INSERT INTO te_delivered(identifier, recipient, date, request)
                    SELECT * FROM unnest(\(delivered.map(\.request.identifier))::text[], \(delivered.map(\.recipient))::text[],
                                         \(delivered.map(\.date.storedSeconds))::float8[], \(requests)::text[])
                    """, logger: logger)
            }
        }
    }

    /// Puts a claimed fire back until `date` (a failed hand-over): it stays
    /// `owner`'s until then, and whoever claims it after hands it over again.
    func postpone(identifier: String, generation: Int64, owner: String, for delay: Duration) async throws {
        try await run("""
            UPDATE te_pending SET lease_until = extract(epoch from clock_timestamp()) + \(delay.seconds)
            WHERE identifier = \(identifier) AND generation = \(generation) AND lease_owner = \(owner)
            """)
    }

    /// `postpone` for an event fire.
    func postponeEventFire(_ id: DeliveryID, owner: String, for delay: Duration) async throws {
        try await run("""
            UPDATE te_event_fires SET lease_until = extract(epoch from clock_timestamp()) + \(delay.seconds)
            WHERE id = \(id.rawValue) AND lease_owner = \(owner)
            """)
    }

    /// When a node must look again: the earliest unclaimed fire, or the
    /// earliest lease to expire (as an instant of the database's clock),
    /// whichever comes first; `nil` when nothing waits.
    func nextWakeDate() async throws -> Date? {
        let rows = try await run("""
            SELECT least(
                (SELECT next_fire FROM te_pending WHERE next_fire IS NOT NULL AND lease_until IS NULL
                 ORDER BY next_fire, add_order LIMIT 1),
                (SELECT min(lease_until) FROM te_pending WHERE lease_until IS NOT NULL AND next_fire IS NOT NULL),
                (SELECT min(coalesce(lease_until, due)) FROM te_event_fires))
            """)
        var date: Date?
        for try await seconds in rows.decode(Double?.self) { date = seconds.map(Date.init(storedSeconds:)) }
        return date
    }

    /// How many pending requests and event fires are left.
    func outstandingCount() async throws -> Int {
        let rows = try await run("""
            SELECT (SELECT count(*) FROM te_pending) + (SELECT count(*) FROM te_event_fires)
            """)
        var count = 0
        for try await value in rows.decode(Int64.self) { count = Int(value) }
        return count
    }
}

#endif
