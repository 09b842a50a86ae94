import Foundation
@_spi(Internals) import TriggerEngine
#if PostgreSQL
import TriggerEngineCluster
#endif

/// What `trigger-eval run` asks of a center, whichever store it has: the
/// embedded one (`UserNotificationCenter`, SQLite) or a node of a cluster
/// (`ClusterCenter`, PostgreSQL).
protocol SidecarCenter: Actor {
    func addRequests(_ requests: [NotificationRequest], for recipient: String) async throws
    func remove(_ identifiers: [String]) async throws
    func removeDelivered(_ identifiers: [String]) async throws
    func register(_ category: NotificationCategory) async throws
    func take(_ fix: LocationFix, for recipient: String) async throws
    func push(_ payload: Data, identifier: String, for recipient: String) async throws
    func response(to identifier: String, action: String, text: String?) async throws -> NotificationResponse?
    func pendingIdentifierList() async throws -> [String]
    func authorize(_ status: AuthorizationStatus, for recipient: String) async throws
    /// Returns once nothing is left to deliver.
    func waitForIdle() async
    func stop() async
}

/// The operations both centers spell alike (Apple's names).
protocol CenterOperations: Actor {
    func add(contentsOf requests: [NotificationRequest], for recipient: String) async throws -> [Date?]
    func removePendingNotificationRequests(withIdentifiers identifiers: [String]) async throws
    func removeDeliveredNotifications(withIdentifiers identifiers: [String]) async throws
    func setSettings(_ settings: NotificationSettings, for recipient: String) async throws
}

extension SidecarCenter where Self: CenterOperations {
    func addRequests(_ requests: [NotificationRequest], for recipient: String) async throws {
        _ = try await add(contentsOf: requests, for: recipient)
    }
    func remove(_ identifiers: [String]) async throws {
        try await removePendingNotificationRequests(withIdentifiers: identifiers)
    }
    func removeDelivered(_ identifiers: [String]) async throws {
        try await removeDeliveredNotifications(withIdentifiers: identifiers)
    }
    func authorize(_ status: AuthorizationStatus, for recipient: String) async throws {
        try await setSettings(NotificationSettings(authorizationStatus: status, options: [.alert, .badge, .sound]), for: recipient)
    }
}

extension UserNotificationCenter: SidecarCenter, CenterOperations {
    func register(_ category: NotificationCategory) async throws {
        try await setNotificationCategories(notificationCategories().filter { $0.identifier != category.identifier } + [category])
    }
    func take(_ fix: LocationFix, for recipient: String) async throws { try await ingest(fix, for: recipient) }
    func push(_ payload: Data, identifier: String, for recipient: String) async throws {
        try await receivePush(payload, identifier: identifier, for: recipient)
    }
    func response(to identifier: String, action: String, text: String?) async throws -> NotificationResponse? {
        try await respond(toIdentifier: identifier, action: NotificationResponse.actionIdentifier(named: action), text: text, at: now)
    }
    func pendingIdentifierList() async throws -> [String] { pendingNotificationRequests().map(\.identifier) }
    func waitForIdle() async { await waitUntilIdle() }
}

extension ClusterCenter: SidecarCenter, CenterOperations {
    func register(_ category: NotificationCategory) async throws { try await setNotificationCategory(category) }
    func take(_ fix: LocationFix, for recipient: String) async throws { try await ingest(fix, for: recipient) }
    func push(_ payload: Data, identifier: String, for recipient: String) async throws {
        try await receivePush(payload, identifier: identifier, for: recipient)
    }
    func response(to identifier: String, action: String, text: String?) async throws -> NotificationResponse? {
        try await respond(toIdentifier: identifier, action: NotificationResponse.actionIdentifier(named: action), text: text, at: now)
    }
    func pendingIdentifierList() async throws -> [String] { try await pendingIdentifiers() }
    /// The whole cluster idle: looked at every 100 ms (a node that stops with
    /// `--exit-when-idle` waits for the others' fires too).
    func waitForIdle() async {
        while !Task.isCancelled {
            if (try? await isIdle()) == true { return }
            try? await Task.sleep(for: .milliseconds(100))
        }
    }
}
