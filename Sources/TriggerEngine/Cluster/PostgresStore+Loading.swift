#if PostgreSQL
import Foundation
internal import PostgresNIO

/// Reading the store back (what `CenterPersistence` reads).
extension PostgresStore {
    func loadPendingRecords() async throws -> [NotificationStore.PendingRecord] {
        let decoder = JSONDecoder()
        var records: [NotificationStore.PendingRecord] = []
        let rows = try await run("""
            SELECT identifier, recipient, request, next_fire FROM te_pending ORDER BY add_order
            """)
        for try await (identifier, recipient, json, fire) in rows.decode((String, String, String, Double?).self) {
            let request = try Self.decode(NotificationRequest.self, json, decoder, what: "pending request '\(identifier)'")
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

    func loadDeliveredNotifications() async throws -> [DeliveredNotification] {
        try await loadDelivered(where: nil)
    }

    /// The latest delivered notification of request `identifier`, `nil` when none was delivered.
    func lastDelivered(identifier: String) async throws -> DeliveredNotification? {
        try await loadDelivered(where: identifier).last
    }

    private func loadDelivered(where identifier: String?) async throws -> [DeliveredNotification] {
        let decoder = JSONDecoder()
        var notifications: [DeliveredNotification] = []
        let rows = try await run("""
            SELECT recipient, date, request FROM te_delivered
            WHERE \(identifier == nil) OR identifier = \(identifier ?? "") ORDER BY id
            """)
        for try await (recipient, date, json) in rows.decode((String, Double, String).self) {
            let request = try Self.decode(NotificationRequest.self, json, decoder, what: "delivered notification")
            notifications.append(DeliveredNotification(request: request, date: Date(storedSeconds: date), recipient: recipient))
        }
        return notifications
    }

    func loadNotificationCategories() async throws -> [NotificationCategory] {
        let decoder = JSONDecoder()
        var categories: [NotificationCategory] = []
        let rows = try await run("SELECT identifier, category FROM te_categories ORDER BY identifier")
        for try await (identifier, json) in rows.decode((String, String).self) {
            categories.append(try Self.decode(NotificationCategory.self, json, decoder, what: "category '\(identifier)'"))
        }
        return categories
    }

    func loadNotificationSettings() async throws -> [String: NotificationSettings] {
        var settings: [String: NotificationSettings] = [:]
        let rows = try await run("SELECT recipient, status, options FROM te_authorization")
        for try await (recipient, status, options) in rows.decode((String, String, Int64).self) {
            settings[recipient] = NotificationSettings(authorizationStatus: AuthorizationStatus(rawValue: status) ?? .notDetermined,
                                                       options: AuthorizationOptions(rawValue: Int(truncatingIfNeeded: options)))
        }
        return settings
    }

    func loadTokens() async throws -> [String: Set<String>] {
        var tokens: [String: Set<String>] = [:]
        let rows = try await run("SELECT recipient, token FROM te_device_tokens")
        for try await (recipient, token) in rows.decode((String, String).self) { tokens[recipient, default: []].insert(token) }
        return tokens
    }

    func loadPendingEventFires() async throws -> [EventFire] {
        let decoder = JSONDecoder()
        var fires: [EventFire] = []
        let rows = try await run("SELECT id, fire FROM te_event_fires ORDER BY taken")
        for try await (id, json) in rows.decode((String, String).self) {
            fires.append(try Self.decode(EventFire.self, json, decoder, what: "event fire '\(id)'"))
        }
        return fires
    }

    /// Decodes a stored JSON value.
    /// - Throws: `DataError` naming what did not decode.
    static func decode<T: Decodable>(_ type: T.Type, _ json: String, _ decoder: JSONDecoder, what: String) throws -> T {
        do {
            return try decoder.decode(type, from: Data(json.utf8))
        } catch {
            throw DataError("stored \(what) does not decode: \(error)")
        }
    }
}
#endif
