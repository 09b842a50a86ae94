#if PostgreSQL
import Foundation
@_spi(Internals) import TriggerEngine

/// A node of a clustered notification center: any number of processes on one
/// PostgreSQL database (`PostgresStore`) share the pending requests, and each
/// fire is delivered by one of them.
///
/// Unlike `UserNotificationCenter`, whose memory is the truth and whose store
/// follows it, a node keeps nothing the others could change: the pending
/// requests and their next fires are in the database, and every call reads or
/// writes there. Adds on any node wake every node (NOTIFY), so a fire due soon
/// is not held up by a poll.
///
/// **Guarantees.** At least once across the cluster: a fire is finished in the
/// database only after its hand-over returned. A fire is handed over twice only
/// when the node that had it died (or stalled past its lease) before finishing
/// it; the second hand-over has the same `DeliveryID`. A replace or remove
/// that races a claim wins: the node finishing the old fire changes nothing.
public actor ClusterCenter {
    /// The shared store.
    public nonisolated let store: PostgresStore
    /// How this node shares the work.
    public nonisolated let configuration: ClusterConfiguration
    /// The zone floating calendar and recurrence triggers follow (the same on every node).
    public nonisolated let floatingZone: ZoneRules
    let clock: CenterClock
    /// Which fixes are taken and the default monitor options.
    public private(set) var locationPolicy = LocationPolicy()
    /// How failed hand-overs are retried.
    public private(set) var retryPolicy = DeliveryRetryPolicy()
    var issueHandler: (@Sendable (CenterIssue) async -> Void)?
    var runLoop = ClusterRunLoop()
    /// This node's copy of the location requests (`ClusterCenter+Location`).
    var locations = LocationRequests()
    /// The location requests `locations` watches, with their recipients.
    var locationRequests: [String: (NotificationRequest, String)] = [:]
    /// The `locations` counter of the database `locations` was read at.
    var locationsVersion: Int64 = -1
    /// Failed hand-overs per fire, for the backoff.
    var attempts: [DeliveryID: Int] = [:]

    /// A node on `store`.
    /// - Parameters:
    ///   - store: the database the nodes share.
    ///   - configuration: leases, batch size and poll interval.
    ///   - clock: its clock (`WallClock` in production); due instants are compared with it.
    ///   - start: the date `clock`'s present stands for, when it is not a `NotificationClock`.
    ///   - floatingZone: the zone floating calendar and recurrence triggers follow.
    public init(store: PostgresStore, configuration: ClusterConfiguration, clock: some Clock<Duration> = WallClock(),
                start: Date? = nil, floatingZone: ZoneRules = .utc) {
        self.store = store
        self.configuration = configuration
        self.floatingZone = floatingZone
        self.clock = CenterClock(anchored: clock, at: start ?? Date())
    }

    /// The node's present, from its clock.
    public var now: Date { clock.now() }

    /// Sets the handler `CenterIssue`s are reported to.
    public func setIssueHandler(_ handler: (@Sendable (CenterIssue) async -> Void)?) { issueHandler = handler }

    /// Sets how failed hand-overs are retried.
    public func setRetryPolicy(_ policy: DeliveryRetryPolicy) { retryPolicy = policy }

    /// Sets which fixes are taken and the default monitor options.
    public func setLocationPolicy(_ policy: LocationPolicy) throws(DataError) {
        _ = try policy.options.validated()
        locationPolicy = policy
        locationsVersion = -1
    }

    func report(_ issue: CenterIssue) async { await issueHandler?(issue) }

    // MARK: Pending requests

    /// Adds a request for a recipient (a pending one with the same identifier
    /// is replaced), committed before it returns.
    /// - Returns: its first fire; `nil` for location and push requests and for
    ///   a trigger that never fires (not kept; the one it replaces is gone).
    /// - Throws: `DataError` for what the store cannot keep, `CenterError.store`.
    @discardableResult
    public func add(_ request: NotificationRequest, for recipient: String = "") async throws -> Date? {
        try await add(contentsOf: [request], for: recipient)[0]
    }

    /// Adds several requests in one transaction: all or none.
    public func add(contentsOf requests: [NotificationRequest], for recipient: String = "") async throws -> [Date?] {
        let now = clock.now()
        var records: [ScheduledRequest] = []
        var neverFiring: [String] = []
        var fires: [Date?] = []
        for var request in requests {
            if request.added == nil { request.added = now }
            let fire = request.firstFire(now: now, floatingZone: floatingZone)
            switch fire {
            case .never: neverFiring.append(request.identifier)
            case .onEvent: records.append(.init(request: request, recipient: recipient, nextFire: nil))
            case .at(let date): records.append(.init(request: request, recipient: recipient, nextFire: date))
            }
            fires.append(fire.date)
        }
        var changes: [StoreChange] = [.dropEventFires(requests.map(\.identifier))]
        if !neverFiring.isEmpty { changes.append(.removePending(neverFiring)) }
        if !records.isEmpty { changes.append(.savePending(records)) }
        try await commit(changes)
        return fires
    }

    /// Removes pending requests (and their event fires not yet handed over).
    public func removePendingNotificationRequests(withIdentifiers identifiers: [String]) async throws {
        try await commit([.removePending(identifiers), .dropEventFires(identifiers)])
    }

    /// Removes every pending request.
    public func removeAllPendingNotificationRequests() async throws {
        try await commit([.removeAllPending])
    }

    /// The pending requests of the whole cluster, in the order they were added.
    public func pendingNotificationRequests() async throws -> [NotificationRequest] {
        try await reading { try await store.loadPendingRecords().map(\.request) }
    }

    /// The identifiers of the pending requests, in the order they were added.
    public func pendingIdentifiers() async throws -> [String] { try await reading { try await store.pendingIdentifiers() } }

    /// Whether nothing is left to deliver in the whole cluster.
    public func isIdle() async throws -> Bool { try await reading { try await store.outstandingCount() } == 0 }

    // MARK: Delivered, categories, authorization

    /// Delivered notifications of the whole cluster, oldest first.
    public func deliveredNotifications() async throws -> [DeliveredNotification] {
        try await reading { try await store.loadDeliveredNotifications() }
    }

    /// Removes delivered notifications by request identifier.
    public func removeDeliveredNotifications(withIdentifiers identifiers: [String]) async throws {
        try await commit([.removeDelivered(identifiers)])
    }

    /// Registers a category, replacing one with its identifier; the others stay.
    /// - Throws: `DataError` for more than four actions or an action identifier used twice.
    public func setNotificationCategory(_ category: NotificationCategory) async throws {
        try NotificationCategory.validate([category])
        // Its row alone: a read-modify-write of the whole set would race another node's category.
        do {
            try await store.saveCategory(category)
        } catch {
            throw CenterError.store(StoreError(classifyingPostgres: error))
        }
    }

    /// The registered categories, by identifier.
    public func notificationCategories() async throws -> [NotificationCategory] {
        try await reading { try await store.loadNotificationCategories() }
    }

    /// Sets a recipient's settings.
    public func setSettings(_ settings: NotificationSettings, for recipient: String = "") async throws {
        try await commit([.saveSettings(settings, recipient: recipient)])
    }

    /// A recipient's settings (`notDetermined` when never set).
    public func notificationSettings(for recipient: String = "") async throws -> NotificationSettings {
        try await reading { try await store.loadNotificationSettings() }[recipient]
            ?? NotificationSettings(authorizationStatus: .notDetermined, options: [])
    }

    /// What `body` reads from the shared store.
    /// - Throws: `CenterError.store` with the store's error.
    func reading<Value>(_ body: () async throws -> Value) async throws(CenterError) -> Value {
        do {
            return try await body()
        } catch {
            throw CenterError.store(StoreError(classifyingPostgres: error))
        }
    }

    /// Commits `changes` to the shared store.
    /// - Throws: `DataError` for what it cannot keep, else `CenterError.store`.
    func commit(_ changes: [StoreChange]) async throws {
        do {
            try await store.write(changes)
        } catch let error as DataError {
            throw error
        } catch {
            throw CenterError.store(StoreError(classifyingPostgres: error))
        }
    }
}
#endif
