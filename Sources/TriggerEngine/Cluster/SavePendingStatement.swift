#if PostgreSQL
import Foundation
@_spi(Internals) import TriggerEngine
internal import PostgresNIO

/// Saving pending requests as one prepared statement (prepared once per
/// connection, not parsed and planned per add): data-modifying CTEs drop the
/// event fires of the requests' identifiers, upsert the rows, move the
/// location counter when a location request is among them, and wake every node.
///
/// A replaced request goes to the end of the add order, gets a new generation
/// and loses any claim on it: a node delivering the old one can no longer move it on.
struct SavePendingStatement: PostgresPreparedStatement {
    typealias Row = Void

    static let sql = """
        WITH dropped AS (DELETE FROM te_event_fires WHERE identifier = ANY($1::text[])),
        saved AS (
            INSERT INTO te_pending(identifier, recipient, request, category, next_fire, added, is_location, add_order)
            SELECT i, r, q, c, NULLIF(f, 'NaN'), NULLIF(a, 'NaN'), l, nextval('te_pending_add_order')
            FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::float8[], $7::float8[], $8::boolean[])
                 WITH ORDINALITY AS u(i, r, q, c, f, a, l, n)
            ORDER BY n
            ON CONFLICT (identifier) DO UPDATE SET recipient = excluded.recipient, request = excluded.request,
                category = excluded.category, next_fire = excluded.next_fire, added = excluded.added,
                is_location = excluded.is_location, add_order = excluded.add_order,
                generation = te_pending.generation + 1, lease_owner = NULL, lease_until = NULL
            RETURNING is_location),
        counted AS (UPDATE te_counters SET value = value + 1
                    WHERE name = 'locations' AND EXISTS (SELECT 1 FROM saved WHERE is_location))
        SELECT CASE WHEN $9::text = '' THEN NULL ELSE pg_notify('\(PostgresStore.wakeChannel)', $9::text) END
        """

    var dropped: [String]
    var identifiers: [String] = []
    var recipients: [String] = []
    var requests: [String] = []
    var categories: [String] = []
    /// Arrays of optionals do not bind: NaN stands for NULL.
    var fires: [Double] = []
    var added: [Double] = []
    var locations: [Bool] = []
    /// The earliest fire on the clock, the payload that wakes the nodes; empty when none.
    var wake = ""

    /// The statement for `records`; nil when there is nothing to save.
    /// - Throws: `DataError` for a category identifier the database cannot keep.
    init?(_ records: [ScheduledRequest], dropping dropped: [String]) throws {
        // One statement cannot touch a row twice: a request listed twice keeps its last add, at that place.
        var last: [String: Int] = [:]
        for (index, record) in records.enumerated() { last[record.request.identifier] = index }
        let kept = records.indices.filter { last[records[$0].request.identifier] == $0 }.map { records[$0] }
        guard !kept.isEmpty else { return nil }
        self.dropped = dropped
        for record in kept {
            try StoreKey.check(record.request.content.categoryIdentifier, "category identifier")
            identifiers.append(record.request.identifier)
            recipients.append(record.recipient)
            requests.append(try StoreJSON.text(StoredRequest(record.request)))
            categories.append(record.request.content.categoryIdentifier)
            fires.append(record.nextFire?.storedSeconds ?? .nan)
            added.append(record.request.added?.storedSeconds ?? .nan)
            if case .location? = record.request.trigger { locations.append(true) } else { locations.append(false) }
        }
        wake = kept.compactMap(\.nextFire).min().map { String($0.storedSeconds) } ?? ""
    }

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 9)
        bindings.append(dropped)
        bindings.append(identifiers)
        bindings.append(recipients)
        bindings.append(requests)
        bindings.append(categories)
        bindings.append(fires)
        bindings.append(added)
        bindings.append(locations)
        bindings.append(wake)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws {}
}
#endif
