internal import DequeModule
import Foundation

/// The notification center a scheduler service embeds: `UNUserNotificationCenter`
/// for many recipients. It owns the dispatcher, the categories, the delivered
/// list, authorization and device tokens, and persists through an optional
/// `NotificationStore`.
///
/// **Time.** The center runs on a clock (`init(clock:…)`: `WallClock` in
/// production, `ManualClock` in tests, or any `Clock<Duration>`). "Now" for an
/// add, a time-interval trigger's start and a fix's age all come from it.
/// `init(now:…)` makes a center on a manual clock that `advance(to:)` moves: a
/// simulation.
///
/// **Delivering.** Live: `run()` sleeps until the next fire (an add, replace or
/// remove that changes it wakes it) and hands each delivery to the handler set
/// with `setDeliveryHandler(_:)`; it fits a swift-service-lifecycle
/// `ServiceGroup`. Stepped: `advance(to:)`, `ingest(_:for:)` and
/// `receivePush(…)` return the deliveries they make.
///
/// **Durability.** Every change is committed to the store before the call
/// returns; changes that arrive together share a transaction (group commit).
/// A fire is recorded as done only after it was handed over, so a crash
/// repeats at most the fires in flight, with the same `DeliveryID`s. Store
/// work runs on GRDB's own thread, never blocking the caller's.
public actor UserNotificationCenter {
    let dispatcher: Dispatcher
    let store: NotificationStore?
    let clock: CenterClock
    var categories: [String: NotificationCategory] = [:]
    var delivered: [DeliveredNotification] = []
    /// Notifications handed over whose record is not yet written, in hand-over
    /// order (records are applied in that order).
    var deliveredInFlight: Deque<DeliveredNotification> = []
    /// The recipient of each pending request; absent for the default recipient `""`,
    /// so a single-user center keeps no entry per request.
    var recipients: [String: String] = [:]
    var settings: [String: NotificationSettings] = [:]
    var locations = LocationRequests()
    /// Fires caused by events (location, push), taken and not yet handed over,
    /// in the order they are handed over.
    var eventFires: [EventFire] = []
    /// Event fires handed over whose record is not yet written.
    var eventFiresHeld: Set<DeliveryID> = []
    /// When each event fire that failed its hand-over is tried again.
    var eventRetries: [DeliveryID: Date] = [:]
    /// Failed hand-overs and store writes per fire, for the backoff.
    var attempts: [DeliveryID: Int] = [:]
    /// Sound durations by file name, read once each (`SoundDurations`).
    var soundDurations = SoundDurations()
    /// Directory custom sound names are looked up in (for the 30-second rule).
    public private(set) var soundDirectory: URL?
    /// The delegate responses and foreground presentations go to.
    public private(set) var delegate: (any UserNotificationCenterDelegate)?
    /// Recipients whose app is in the foreground (their delegate decides presentation).
    public private(set) var foregroundRecipients: Set<String> = []
    /// Fires not delivered because the recipient denied (or has not answered).
    public internal(set) var deniedCount = 0
    /// Dismiss responses dropped because their category lacks `customDismissAction`.
    public internal(set) var droppedDismissCount = 0
    /// Device tokens per recipient.
    public private(set) var deviceTokens = DeviceTokenRegistry()
    /// Rows of the store that did not decode when it was opened: kept in the
    /// store, out of use (`NotificationStore.SetAsideRecord`).
    public nonisolated let setAsideRecords: [NotificationStore.SetAsideRecord]
    /// How `requestAuthorization` is answered for a recipient not yet asked
    /// (a server has no dialog; tests and simulations choose the answer).
    var authorizationAnswer: @Sendable (String, AuthorizationOptions) -> AuthorizationStatus = { _, options in
        options.contains(.provisional) ? .provisional : .authorized
    }
    /// Which fixes are taken, and the default monitor options.
    public private(set) var locationPolicy = LocationPolicy()
    /// How failed hand-overs and store writes are retried.
    public private(set) var retryPolicy = DeliveryRetryPolicy()
    var deliveryHandler: (@Sendable (Delivery) async throws -> Void)?
    var issueHandler: (@Sendable (CenterIssue) async -> Void)?
    /// Made by `init(now:…)`: events move the clock (`catchUp`).
    let isSimulation: Bool
    var journal = Journal()
    var lane = DeliveryLane()
    var runLoop = RunLoopState()

    /// Creates a center on `clock`, reopening `store` when given: its pending
    /// requests (fires missed while nothing ran follow each request's
    /// `MisfirePolicy`), event fires not yet handed over, delivered
    /// notifications, categories, settings and device tokens. Rows that do not
    /// decode are set aside (`setAsideRecords`), not fatal.
    /// - Parameters:
    ///   - clock: the center's clock. A `NotificationClock` (`WallClock`,
    ///     `ManualClock`) reads dates; any other clock is anchored at `start`.
    ///   - start: the date `clock`'s present stands for, when it is not a
    ///     `NotificationClock` (default: the system's date now).
    ///   - floatingZone: the zone floating calendar and recurrence triggers follow.
    ///   - store: where the center keeps what it acknowledged (`nil`: memory only).
    /// - Throws: `CenterError.store` (a `StoreError`) when the store
    ///   cannot be read. Loading a million requests takes about 2 s; see
    ///   `open(clock:…)` to do it off the caller's thread.
    public init(clock: some Clock<Duration> = WallClock(), start: Date? = nil, floatingZone: ZoneRules = .utc,
                store: NotificationStore? = nil) throws {
        try self.init(clock: CenterClock(anchored: clock, at: start ?? Date()), floatingZone: floatingZone, store: store,
                      isSimulation: false)
    }

    /// A simulation: a center on a manual clock that starts at `now` and is
    /// moved by `advance(to:)`, and by a fix or a push later than it (which
    /// first delivers what falls due on the way).
    public init(now: Date, floatingZone: ZoneRules = .utc, store: NotificationStore? = nil) throws {
        try self.init(clock: CenterClock(exact: ManualClock(now: now)), floatingZone: floatingZone, store: store,
                      isSimulation: true)
    }

    private init(clock: CenterClock, floatingZone: ZoneRules, store: NotificationStore?, isSimulation: Bool) throws {
        self.clock = clock
        self.isSimulation = isSimulation
        dispatcher = Dispatcher(now: self.clock.now(), floatingZone: floatingZone)
        self.store = store
        guard let store else {
            setAsideRecords = []
            return
        }
        // The store's own errors (SQLite's) reach the caller as `CenterError.store`.
        do {
            // Rows go straight into the dispatcher as they are read (no array of every record),
            // decoded on a second thread while this one rebuilds.
            var loader = Dispatcher.BulkLoader(dispatcher)
            var recipients: [String: String] = [:]
            var locations = LocationRequests()
            let defaultOptions = locationPolicy.options
            try store.forEachPending(readAhead: true, reservingCapacity: { loader.reserveCapacity($0) }) { record, sharedTrigger in
                loader.add(record.request, nextFire: record.nextFire, sharedTrigger: sharedTrigger)
                if !record.recipient.isEmpty { recipients[record.request.identifier] = record.recipient }
                if case .location(let trigger)? = record.request.trigger {
                    locations.insert(identifier: record.request.identifier, trigger: trigger, defaultOptions: defaultOptions)
                }
            }
            loader.finish()
            self.recipients = recipients
            self.locations = locations
            eventFires = try store.loadEventFires()
            delivered = try store.loadDelivered()
            for category in try store.loadCategories() { categories[category.identifier] = category }
            settings = try store.loadSettings()
            deviceTokens = DeviceTokenRegistry(tokens: try store.loadDeviceTokens())
            setAsideRecords = try store.loadSetAside()
        } catch let error as InputFileError {
            throw error
        } catch {
            throw CenterError.store(StoreError(classifying: error))
        }
    }

    /// `init(clock:…)` on a thread of its own, so that loading a large store
    /// does not hold one of the cooperative pool's few threads.
    public static func open(clock: some Clock<Duration> = WallClock(), start: Date? = nil,
                            floatingZone: ZoneRules = .utc, store: NotificationStore?) async throws -> UserNotificationCenter {
        try await onDedicatedThread {
            try UserNotificationCenter(clock: clock, start: start, floatingZone: floatingZone, store: store)
        }
    }

    /// The center's present, from its clock.
    public var now: Date { clock.now() }

    /// Sets the delegate.
    public func setDelegate(_ delegate: (any UserNotificationCenterDelegate)?) { self.delegate = delegate }

    /// Sets the directory custom sounds are read from.
    public func setSoundDirectory(_ url: URL?) {
        soundDirectory = url
        soundDurations = SoundDurations()
    }

    /// Marks a recipient's app as in the foreground or not.
    public func setForeground(_ foreground: Bool, for recipient: String = "") {
        if foreground { foregroundRecipients.insert(recipient) } else { foregroundRecipients.remove(recipient) }
    }

    /// Sets how `requestAuthorization` is answered for a recipient not yet asked.
    public func setAuthorizationAnswer(_ answer: @escaping @Sendable (String, AuthorizationOptions) -> AuthorizationStatus) {
        authorizationAnswer = answer
    }

    /// Sets which fixes are taken and the default monitor options. Requests
    /// without options of their own are watched again with the new ones.
    public func setLocationPolicy(_ policy: LocationPolicy) throws(DataError) {
        _ = try policy.options.validated()
        locationPolicy = policy
        locations.removeAll()
        for request in dispatcher.pendingRequests {
            if case .location(let trigger)? = request.trigger {
                locations.insert(identifier: request.identifier, trigger: trigger, defaultOptions: policy.options)
            }
        }
    }

    /// Sets how failed hand-overs and store writes are retried.
    public func setRetryPolicy(_ policy: DeliveryRetryPolicy) { retryPolicy = policy }

    /// Sets the handler `run()` hands deliveries to. It returns once the
    /// delivery is safely with the receiver; a fire is recorded as done only
    /// then. When it throws, the same delivery is handed over again later
    /// (`DeliveryRetryPolicy`).
    public func setDeliveryHandler(_ handler: (@Sendable (Delivery) async throws -> Void)?) { deliveryHandler = handler }

    /// Sets the handler `CenterIssue`s are reported to (fires not delivered,
    /// failed hand-overs and store writes, unknown categories).
    public func setIssueHandler(_ handler: (@Sendable (CenterIssue) async -> Void)?) { issueHandler = handler }

    func report(_ issue: CenterIssue) async {
        await issueHandler?(issue)
    }

    // MARK: Categories

    /// Replaces the registered categories (`setNotificationCategories`).
    /// - Throws: `DataError` for more than four actions in a category or an
    ///   action identifier used twice; `CenterError.store` when the store fails.
    public func setNotificationCategories(_ newCategories: [NotificationCategory]) async throws {
        try NotificationCategory.validate(newCategories)
        try await commit([.saveCategories(newCategories)]) {
            self.categories = Dictionary(uniqueKeysWithValues: newCategories.map { ($0.identifier, $0) })
        }
    }

    /// The registered categories, by identifier.
    public func notificationCategories() -> [NotificationCategory] {
        categories.values.sorted { $0.identifier < $1.identifier }
    }

    // MARK: Authorization

    /// Asks `recipient` for permission; the first call decides (through
    /// `setAuthorizationAnswer`), later ones return the stored decision.
    /// - Returns: whether notifications may be delivered.
    @discardableResult
    public func requestAuthorization(options: AuthorizationOptions, for recipient: String = "") async throws -> Bool {
        var current = notificationSettings(for: recipient)
        if current.authorizationStatus == .notDetermined {
            current = NotificationSettings(authorizationStatus: authorizationAnswer(recipient, options), options: options)
            try await setSettings(current, for: recipient)
        }
        return current.allowsDelivery
    }

    /// Sets a recipient's settings directly (the user changed them).
    public func setSettings(_ newSettings: NotificationSettings, for recipient: String = "") async throws {
        try await commit([.saveSettings(newSettings, recipient: recipient)]) { self.settings[recipient] = newSettings }
    }

    /// `getNotificationSettings` for one recipient.
    public func notificationSettings(for recipient: String = "") -> NotificationSettings {
        settings[recipient] ?? NotificationSettings(authorizationStatus: .notDetermined, options: [])
    }

    // MARK: Device tokens

    /// Registers (or with `replacing`, updates) a device token for a recipient.
    /// Committed to the store before it returns.
    /// - Throws: `DataError` for a token that is not even-length hex; `CenterError.store`.
    public func registerDeviceToken(_ token: String, for recipient: String, replacing old: String? = nil) async throws {
        try await commitLater { () throws -> ([StoreChange], () -> Void) in
            var updated = self.deviceTokens
            try updated.register(token, for: recipient, replacing: old)
            return ([.saveDeviceTokens(updated.tokens[recipient] ?? [], recipient: recipient)], { self.deviceTokens = updated })
        }
    }

    /// Unregisters one token, or all of a recipient's. Committed to the store before it returns.
    public func unregisterDeviceToken(_ token: String? = nil, for recipient: String) async throws {
        try await commitLater { () throws -> ([StoreChange], () -> Void) in
            var updated = self.deviceTokens
            updated.unregister(token, for: recipient)
            return ([.saveDeviceTokens(updated.tokens[recipient] ?? [], recipient: recipient)], { self.deviceTokens = updated })
        }
    }
}
