import Foundation

/// What a center keeps, whichever database keeps it: the changes it commits
/// (`StoreChange`, all or none per call) and the state it reads back.
///
/// Two implementations: `NotificationStore` (SQLite, embedded, one process)
/// and `PostgresStore` (PostgreSQL, shared by the nodes of a cluster). One
/// behavioural suite (`CenterPersistenceTests`) runs against both, so a
/// change means the same in each.
package protocol CenterPersistence: Sendable {
    /// Writes `changes` in one transaction.
    /// - Throws: `DataError` for something the store cannot keep (nothing is
    ///   written), or the database's error.
    func write(_ changes: [StoreChange]) async throws
    /// Pending requests in the order they were added.
    func loadPendingRecords() async throws -> [ScheduledRequest]
    /// Delivered notifications, oldest first.
    func loadDeliveredNotifications() async throws -> [DeliveredNotification]
    /// Registered categories, by identifier.
    func loadNotificationCategories() async throws -> [NotificationCategory]
    /// Every recipient's authorization.
    func loadNotificationSettings() async throws -> [String: NotificationSettings]
    /// Device tokens per recipient.
    func loadTokens() async throws -> [String: Set<String>]
    /// Event fires taken and not yet handed over, in the order they were taken.
    func loadPendingEventFires() async throws -> [EventFire]
}

extension NotificationStore: CenterPersistence {
    package func loadPendingRecords() async throws -> [ScheduledRequest] { try loadPending() }
    package func loadDeliveredNotifications() async throws -> [DeliveredNotification] { try loadDelivered() }
    package func loadNotificationCategories() async throws -> [NotificationCategory] { try loadCategories() }
    package func loadNotificationSettings() async throws -> [String: NotificationSettings] { try loadSettings() }
    package func loadTokens() async throws -> [String: Set<String>] { try loadDeviceTokens() }
    package func loadPendingEventFires() async throws -> [EventFire] { try loadEventFires() }
}
