import Foundation

/// The notification center a scheduler service embeds: `UNUserNotificationCenter`
/// for many recipients. It owns the dispatcher, the categories, the delivered
/// list, authorization and device tokens, and persists through an optional
/// `NotificationStore` (every change is committed before the call returns).
///
/// Time: `advance(to:)` moves a virtual clock (simulation, tests); `run()`
/// sleeps on the real clock until each next due instant.
public actor UserNotificationCenter {
    let dispatcher: Dispatcher
    let store: NotificationStore?
    var categories: [String: NotificationCategory] = [:]
    var delivered: [DeliveredNotification] = []
    /// The recipient of each pending request; absent for the default recipient `""`,
    /// so a single-user center keeps no entry per request.
    var recipients: [String: String] = [:]
    var settings: [String: NotificationSettings] = [:]
    var locationMonitor: RegionMonitor?
    var locationDirty = true
    /// Each device's latest fix, replayed into a rebuilt monitor so that a
    /// device inside a region stays inside when location requests change.
    var lastFixes: [String: LocationFix] = [:]
    /// Directory custom sound names are looked up in (for the 30-second rule).
    public var soundDirectory: URL?
    /// The delegate responses and foreground presentations go to.
    public private(set) var delegate: (any UserNotificationCenterDelegate)?
    /// Recipients whose app is in the foreground (their delegate decides presentation).
    public var foregroundRecipients: Set<String> = []
    /// Fires not delivered because the recipient denied (or has not answered).
    public internal(set) var deniedCount = 0
    /// Dismiss responses dropped because their category lacks `customDismissAction`.
    public internal(set) var droppedDismissCount = 0
    /// Device tokens per recipient.
    public private(set) var deviceTokens = DeviceTokenRegistry()
    /// How `requestAuthorization` is answered for a recipient not yet asked
    /// (a server has no dialog; tests and simulations choose the answer).
    public var authorizationAnswer: @Sendable (String, AuthorizationOptions) -> AuthorizationStatus = { _, options in
        options.contains(.provisional) ? .provisional : .authorized
    }

    /// Creates a center whose clock starts at `now`; with a store, reloads its
    /// pending requests (missed fires follow each request's `MisfirePolicy`),
    /// delivered notifications, categories and settings.
    /// - Throws: what the store throws while loading.
    public init(now: Date, floatingZone: ZoneRules = .utc, store: NotificationStore? = nil) throws {
        dispatcher = Dispatcher(now: now, floatingZone: floatingZone)
        self.store = store
        if let store {
            // Rows go straight into the dispatcher as they are read (no array of every record),
            // decoded on a second thread while this one rebuilds.
            var loader = Dispatcher.BulkLoader(dispatcher)
            var recipients: [String: String] = [:]
            try store.forEachPending(readAhead: true, reservingCapacity: { loader.reserveCapacity($0) }) { record, sharedTrigger in
                loader.add(record.request, nextFire: record.nextFire, sharedTrigger: sharedTrigger)
                if !record.recipient.isEmpty { recipients[record.request.identifier] = record.recipient }
            }
            loader.finish()
            self.recipients = recipients
            delivered = try store.loadDelivered()
            for category in try store.loadCategories() { categories[category.identifier] = category }
            settings = try store.loadSettings()
            deviceTokens = DeviceTokenRegistry(tokens: try store.loadDeviceTokens())
        }
    }

    /// Sets the delegate.
    public func setDelegate(_ delegate: (any UserNotificationCenterDelegate)?) { self.delegate = delegate }

    /// Sets the directory custom sounds are read from.
    public func setSoundDirectory(_ url: URL?) { soundDirectory = url }

    /// Marks a recipient's app as in the foreground or not.
    public func setForeground(_ foreground: Bool, for recipient: String = "") {
        if foreground { foregroundRecipients.insert(recipient) } else { foregroundRecipients.remove(recipient) }
    }

    /// The center's present.
    public var now: Date { dispatcher.now }

    // MARK: Categories

    /// Replaces the registered categories (`setNotificationCategories`).
    /// - Throws: `DataError` for more than four actions in a category or an
    ///   action identifier used twice.
    public func setNotificationCategories(_ newCategories: [NotificationCategory]) throws {
        try NotificationCategory.validate(newCategories)
        try store?.saveCategories(newCategories)
        categories = Dictionary(uniqueKeysWithValues: newCategories.map { ($0.identifier, $0) })
    }

    /// The registered categories, by identifier.
    public func notificationCategories() -> [NotificationCategory] {
        categories.values.sorted { $0.identifier < $1.identifier }
    }

    // MARK: Authorization

    /// Asks `recipient` for permission; the first call decides (through
    /// `authorizationAnswer`), later ones return the stored decision.
    /// - Returns: whether notifications may be delivered.
    @discardableResult
    public func requestAuthorization(options: AuthorizationOptions, for recipient: String = "") throws -> Bool {
        var current = notificationSettings(for: recipient)
        if current.authorizationStatus == .notDetermined {
            current = NotificationSettings(authorizationStatus: authorizationAnswer(recipient, options), options: options)
            try setSettings(current, for: recipient)
        }
        return current.allowsDelivery
    }

    /// Sets a recipient's settings directly (the user changed them).
    public func setSettings(_ newSettings: NotificationSettings, for recipient: String = "") throws {
        try store?.saveSettings(newSettings, for: recipient)
        settings[recipient] = newSettings
    }

    /// `getNotificationSettings` for one recipient.
    public func notificationSettings(for recipient: String = "") -> NotificationSettings {
        settings[recipient] ?? NotificationSettings(authorizationStatus: .notDetermined, options: [])
    }

    // MARK: Device tokens

    /// Registers (or with `replacing`, updates) a device token for a recipient.
    /// Committed to the store before it returns.
    /// - Throws: `DataError` for a token that is not even-length hex; what the store throws.
    public func registerDeviceToken(_ token: String, for recipient: String, replacing old: String? = nil) throws {
        var updated = deviceTokens
        try updated.register(token, for: recipient, replacing: old)
        try store?.saveDeviceTokens(updated.tokens[recipient] ?? [], for: recipient)
        deviceTokens = updated
    }

    /// Unregisters one token, or all of a recipient's. Committed to the store before it returns.
    /// - Throws: what the store throws.
    public func unregisterDeviceToken(_ token: String? = nil, for recipient: String) throws {
        var updated = deviceTokens
        updated.unregister(token, for: recipient)
        try store?.saveDeviceTokens(updated.tokens[recipient] ?? [], for: recipient)
        deviceTokens = updated
    }

    // MARK: Pending

    /// Adds a request for a recipient; a pending one with the same identifier is
    /// replaced. Committed to the store before it returns.
    /// - Returns: its first fire, `nil` for location triggers.
    /// - Throws: what the store throws (a key it cannot keep, a full disk); the
    ///   center's pending requests are then as they were.
    @discardableResult
    public func add(_ request: NotificationRequest, for recipient: String = "") throws -> Date? {
        var request = request
        if request.added == nil { request.added = dispatcher.now }
        let replaced = dispatcher.request(withIdentifier: request.identifier)
        let replacedFire = dispatcher.nextFireDate(ofIdentifier: request.identifier)
        let fire = dispatcher.add(request)
        do {
            try store?.savePending([.init(request: request, recipient: recipient, nextFire: fire)])
        } catch {
            // Not stored, so not pending: put back what the add replaced (the store still has it).
            dispatcher.removePending(withIdentifiers: [request.identifier])
            if let replaced { dispatcher.add(replaced, nextFire: replacedFire) }
            throw error
        }
        recipients[request.identifier] = recipient.isEmpty ? nil : recipient
        if case .location? = request.trigger { locationDirty = true }
        return fire
    }

    /// How many requests are pending (without listing them).
    public func pendingRequestCount() -> Int { dispatcher.pendingCount }

    /// The pending requests, in the order they were added.
    public func pendingNotificationRequests() -> [NotificationRequest] { dispatcher.pendingRequests }

    /// Removes pending requests by identifier.
    public func removePendingNotificationRequests(withIdentifiers identifiers: [String]) throws {
        try store?.removePending(identifiers: identifiers)
        dispatcher.removePending(withIdentifiers: identifiers)
        locationDirty = true
    }

    /// Removes every pending request.
    public func removeAllPendingNotificationRequests() throws {
        try store?.removeAllPending()
        dispatcher.removeAllPending()
        locationDirty = true
    }

    // MARK: Delivered

    /// Delivered notifications, oldest first.
    public func deliveredNotifications() -> [DeliveredNotification] { delivered }

    /// Removes delivered notifications by request identifier.
    public func removeDeliveredNotifications(withIdentifiers identifiers: [String]) throws {
        try store?.removeDelivered(identifiers: identifiers)
        let set = Set(identifiers)
        delivered.removeAll { set.contains($0.request.identifier) }
    }

    /// Removes every delivered notification.
    public func removeAllDeliveredNotifications() throws {
        try store?.removeDelivered(identifiers: nil)
        delivered.removeAll()
    }
}
