#if PostgreSQL
import Foundation
@_spi(Internals) import TriggerEngine
internal import PostgresNIO

/// Reading the store back (what `CenterPersistence` reads).
extension PostgresStore {
    package func loadPendingRecords() async throws -> [ScheduledRequest] {
        var records: [ScheduledRequest] = []
        let rows = try await run("""
            SELECT identifier, recipient, request, next_fire FROM te_pending ORDER BY add_order
            """)
        for try await (identifier, recipient, json, fire) in rows.decode((String, String, String, Double?).self) {
            let request = try PostgresStore.decodeRequest(json, what: "pending request '\(identifier)'")
            records.append(.init(request: request, recipient: recipient, nextFire: fire.map(Date.init(storedSeconds:))))
        }
        return records
    }

    /// The identifiers of the pending requests, in the order they were added.
    func pendingIdentifiers() async throws -> [String] {
        var identifiers: [String] = []
        let rows = try await run("SELECT identifier FROM te_pending ORDER BY add_order")
        for try await identifier in rows.decode(String.self) { identifiers.append(identifier) }
        return identifiers
    }

    package func loadDeliveredNotifications() async throws -> [DeliveredNotification] {
        try await loadDelivered(where: nil)
    }

    /// The latest delivered notification of request `identifier`, `nil` when none was delivered.
    func lastDelivered(identifier: String) async throws -> DeliveredNotification? {
        try await loadDelivered(where: identifier).last
    }

    private func loadDelivered(where identifier: String?) async throws -> [DeliveredNotification] {
        var notifications: [DeliveredNotification] = []
        let rows = try await run("""
            SELECT recipient, date, request FROM te_delivered
            WHERE \(identifier == nil) OR identifier = \(identifier ?? "") ORDER BY id
            """)
        for try await (recipient, date, json) in rows.decode((String, Double, String).self) {
            let request = try PostgresStore.decodeRequest(json, what: "delivered notification")
            notifications.append(DeliveredNotification(request: request, date: Date(storedSeconds: date), recipient: recipient))
        }
        return notifications
    }

    package func loadNotificationCategories() async throws -> [NotificationCategory] {
        var categories: [NotificationCategory] = []
        let rows = try await run("SELECT identifier, category FROM te_categories ORDER BY identifier")
        for try await (identifier, json) in rows.decode((String, String).self) {
            categories.append(try PostgresStore.decodeCategory(json, what: "category '\(identifier)'"))
        }
        return categories
    }

    package func loadNotificationSettings() async throws -> [String: NotificationSettings] {
        var settings: [String: NotificationSettings] = [:]
        let rows = try await run("SELECT recipient, status, options FROM te_authorization")
        for try await (recipient, status, options) in rows.decode((String, String, Int64).self) {
            settings[recipient] = NotificationSettings(authorizationStatus: AuthorizationStatus(rawValue: status) ?? .notDetermined,
                                                       options: AuthorizationOptions(rawValue: Int(truncatingIfNeeded: options)))
        }
        return settings
    }

    package func loadTokens() async throws -> [String: Set<String>] {
        var tokens: [String: Set<String>] = [:]
        let rows = try await run("SELECT recipient, token FROM te_device_tokens")
        for try await (recipient, token) in rows.decode((String, String).self) { tokens[recipient, default: []].insert(token) }
        return tokens
    }

    package func loadPendingEventFires() async throws -> [EventFire] {
        var fires: [EventFire] = []
        let rows = try await run("SELECT id, fire FROM te_event_fires ORDER BY taken")
        for try await (id, json) in rows.decode((String, String).self) {
            fires.append(try PostgresStore.decodeEventFire(json, what: "event fire '\(id)'"))
        }
        return fires
    }

    /// A stored request (`StoredRequest`'s JSON).
    /// - Throws: `DataError` naming `what` did not decode.
    static func decodeRequest(_ json: String, what: String) throws -> NotificationRequest {
        try decoding(what) { try StoreJSON.decode(StoredRequest.self, fromText: json).request() }
    }

    /// A stored category (`StoredCategory`'s JSON).
    static func decodeCategory(_ json: String, what: String) throws -> NotificationCategory {
        try decoding(what) { try StoreJSON.decode(StoredCategory.self, fromText: json).category }
    }

    /// A stored event fire (`StoredEventFire`'s JSON).
    static func decodeEventFire(_ json: String, what: String) throws -> EventFire {
        try decoding(what) { try StoreJSON.decode(StoredEventFire.self, fromText: json).fire() }
    }

    private static func decoding<T>(_ what: String, _ decode: () throws -> T) throws -> T {
        do {
            return try decode()
        } catch {
            throw DataError("stored \(what) does not decode: \(error)")
        }
    }
}
#endif
