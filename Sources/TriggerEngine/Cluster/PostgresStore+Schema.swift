#if PostgreSQL
import Foundation
@_spi(Internals) import TriggerEngine
internal import PostgresNIO

/// The store's tables, versioned in `te_schema` like the SQLite store's
/// `user_version`: a database of an older version is migrated in one
/// transaction when a node opens it; one of a newer version is refused.
/// Nodes that start together serialise on an advisory lock, so exactly one
/// of them creates or migrates.
///
/// Version 1:
/// - `te_pending`: one row per pending request; `next_fire` (seconds since
///   1970, `NULL` for a request that waits for an event) is indexed for the
///   claim; `generation` grows on each replace, so a node finishing a fire of
///   the replaced request changes nothing; `lease_owner`/`lease_until` hold a
///   claim (`lease_until` on the database's clock).
/// - `te_event_fires`: fires of location fixes and pushes, claimed the same way.
/// - `te_devices`: each device's latest fix (per-device region state; see `ClusterCenter+Location`).
/// - `te_counters`: `locations` grows with every change to the location requests.
/// - `te_delivered`, `te_categories`, `te_authorization`, `te_device_tokens`: as in SQLite.
///
/// Version 2: the JSON columns hold the store's own forms instead of the
/// public types' `Codable` (`PostgresStore+StoredForms`).
extension PostgresStore {
    /// The schema version this build writes.
    package static let schemaVersion = 2

    /// Any number; the same in every node, so that they take turns migrating.
    private static let migrationLock: Int64 = 0x7472_6967_6765_72 // "trigger"

    func prepareSchema() async throws {
        try await transaction { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.migrationLock))", logger: logger)
            try await connection.query("CREATE TABLE IF NOT EXISTS te_schema(version integer NOT NULL)", logger: logger)
            var version = 0
            for try await found in try await connection.query("SELECT version FROM te_schema", logger: logger)
                .decode(Int.self) { version = found }
            guard version <= Self.schemaVersion else {
                throw DataError("the database has TriggerEngine schema version \(version); this build reads versions up to \(Self.schemaVersion)")
            }
            guard version < Self.schemaVersion else { return }
            if version == 0 {
                for statement in Self.version1 { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
            } else {
                try await Self.migrateToStoredForms(connection, logger: logger)
            }
            try await connection.query("DELETE FROM te_schema", logger: logger)
            try await connection.query("INSERT INTO te_schema(version) VALUES (\(Self.schemaVersion))", logger: logger)
        }
    }

    private static let version1 = [
        """
        CREATE TABLE te_pending(
            identifier text PRIMARY KEY, recipient text NOT NULL, request text NOT NULL,
            category text NOT NULL, next_fire double precision, added double precision,
            is_location boolean NOT NULL, add_order bigint NOT NULL,
            generation bigint NOT NULL DEFAULT 0, lease_owner text, lease_until double precision)
        """,
        "CREATE SEQUENCE te_pending_add_order",
        "CREATE INDEX te_pending_due ON te_pending(next_fire, add_order) WHERE next_fire IS NOT NULL",
        "CREATE INDEX te_pending_leased ON te_pending(lease_until) WHERE lease_until IS NOT NULL",
        "CREATE INDEX te_pending_location ON te_pending(identifier) WHERE is_location",
        """
        CREATE TABLE te_event_fires(
            id text PRIMARY KEY, identifier text NOT NULL, recipient text NOT NULL, due double precision NOT NULL,
            fire text NOT NULL, taken bigserial, lease_owner text, lease_until double precision)
        """,
        "CREATE INDEX te_event_fires_identifier ON te_event_fires(identifier)",
        "CREATE INDEX te_event_fires_due ON te_event_fires(due, taken)",
        """
        CREATE TABLE te_delivered(
            id bigserial PRIMARY KEY, identifier text NOT NULL, recipient text NOT NULL,
            date double precision NOT NULL, request text NOT NULL)
        """,
        "CREATE INDEX te_delivered_identifier ON te_delivered(identifier)",
        "CREATE TABLE te_categories(identifier text PRIMARY KEY, category text NOT NULL)",
        "CREATE TABLE te_authorization(recipient text PRIMARY KEY, status text NOT NULL, options bigint NOT NULL)",
        "CREATE TABLE te_device_tokens(recipient text NOT NULL, token text NOT NULL, PRIMARY KEY(recipient, token))",
        """
        CREATE TABLE te_devices(
            device text PRIMARY KEY, time double precision NOT NULL, latitude double precision NOT NULL,
            longitude double precision NOT NULL, accuracy double precision)
        """,
        "CREATE TABLE te_counters(name text PRIMARY KEY, value bigint NOT NULL)",
        "INSERT INTO te_counters(name, value) VALUES ('locations', 0)",
    ]
}
#endif
