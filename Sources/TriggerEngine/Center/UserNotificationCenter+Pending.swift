import Foundation

/// Pending and delivered requests: adding, replacing, removing, listing.
extension UserNotificationCenter {
    /// Adds a request for a recipient; a pending one with the same identifier
    /// is replaced (a fire of it in flight is dropped). Committed to the store
    /// before it returns. The request's `added` instant, from which a
    /// time-interval trigger counts, is the clock's now unless it is set.
    /// - Returns: its first fire; `nil` for location and push requests, which
    ///   wait for their event, and for a trigger that never fires (such a
    ///   request is not kept, and the one it replaces is gone).
    /// - Throws: `CenterError.store` when the store refused it (a key with
    ///   U+0000, a full disk): the pending requests are then as they were.
    /// - Complexity: O(log n) plus one next-fire computation.
    @discardableResult
    public func add(_ request: NotificationRequest, for recipient: String = "") async throws -> Date? {
        try await add(contentsOf: [request], for: recipient)[0]
    }

    /// Adds several requests at once, in order, in one transaction: all or none.
    /// - Returns: each request's first fire, as `add(_:for:)`.
    public func add(contentsOf requests: [NotificationRequest], for recipient: String = "") async throws -> [Date?] {
        let now = clock.now()
        var placing: [(request: NotificationRequest, fire: NotificationRequest.FirstFire)] = []
        placing.reserveCapacity(requests.count)
        var records: [ScheduledRequest] = []
        var neverFiring: [String] = []
        for var request in requests {
            if request.added == nil { request.added = now }
            let fire = firstFire(of: request, now: now)
            switch fire {
            case .never: neverFiring.append(request.identifier)
            case .onEvent: records.append(.init(request: request, recipient: recipient, nextFire: nil))
            case .at(let date): records.append(.init(request: request, recipient: recipient, nextFire: date))
            }
            placing.append((request, fire))
        }
        // A constant for the closure below: a captured `var` is a region the
        // checker of a sanitizer build (`--sanitize=thread`) calls racy.
        let placed = placing
        let identifiers = requests.map(\.identifier)
        var changes: [StoreChange] = [.dropEventFires(identifiers)]
        if !neverFiring.isEmpty { changes.append(.removePending(neverFiring)) }
        // `savePending` after the removals: a request listed twice ends as its last add.
        if !records.isEmpty { changes.append(.savePending(records)) }
        try await commit(changes) {
            self.dropEventFires(of: identifiers)
            for (request, fire) in placed { self.place(request, fire, recipient: recipient) }
        }
        return placed.map { $0.fire.date }
    }

    /// The first fire of `request` added at `now`, in this center's floating zone.
    func firstFire(of request: NotificationRequest, now: Date) -> NotificationRequest.FirstFire {
        request.firstFire(now: now, floatingZone: dispatcher.floatingZone)
    }

    /// Puts a committed request in memory: the dispatcher, its recipient, the location monitors.
    private func place(_ request: NotificationRequest, _ fire: NotificationRequest.FirstFire, recipient: String) {
        let identifier = request.identifier
        switch fire {
        case .never:
            dispatcher.removePending(withIdentifiers: [identifier])
            recipients[identifier] = nil
            locations.remove(identifier: identifier)
            return
        case .onEvent:
            dispatcher.add(request)
        case .at(let date):
            // The stored fire: should the clock have passed it while the add was
            // committed, the dispatcher fires it at once (its misfire policy).
            dispatcher.add(request, nextFire: date)
        }
        recipients[identifier] = recipient.isEmpty ? nil : recipient
        if case .location(let trigger)? = request.trigger {
            locations.insert(identifier: identifier, trigger: trigger, defaultOptions: locationPolicy.options)
        } else {
            locations.remove(identifier: identifier)
        }
    }

    /// Forgets the event fires of `identifiers` not yet handed over.
    func dropEventFires(of identifiers: [String]) {
        guard !eventFires.isEmpty else { return }
        let dropped = Set(identifiers)
        eventFires.removeAll { dropped.contains($0.request.identifier) }
    }

    /// How many requests are pending (without listing them).
    public func pendingRequestCount() -> Int { dispatcher.pendingCount }

    /// The pending requests, in the order they were added.
    public func pendingNotificationRequests() -> [NotificationRequest] { dispatcher.pendingRequests }

    /// When a pending request fires next on the clock; `nil` for location and
    /// push requests and for identifiers not pending.
    public func nextFireDate(ofIdentifier identifier: String) -> Date? {
        dispatcher.nextFireDate(ofIdentifier: identifier)
    }

    /// Removes pending requests by identifier (a fire of one in flight is
    /// dropped). Committed to the store before it returns.
    public func removePendingNotificationRequests(withIdentifiers identifiers: [String]) async throws {
        try await commit([.removePending(identifiers), .dropEventFires(identifiers)]) {
            self.dispatcher.removePending(withIdentifiers: identifiers)
            self.dropEventFires(of: identifiers)
            for identifier in identifiers {
                self.recipients[identifier] = nil
                self.locations.remove(identifier: identifier)
            }
        }
    }

    /// Removes every pending request.
    public func removeAllPendingNotificationRequests() async throws {
        let identifiers = dispatcher.pendingRequests.map(\.identifier)
        try await commit([.removeAllPending, .dropEventFires(identifiers)]) {
            self.dispatcher.removeAllPending()
            self.dropEventFires(of: identifiers)
            self.recipients.removeAll()
            self.locations.removeAll()
        }
    }

    // MARK: Delivered

    /// Delivered notifications, oldest first.
    /// Those handed over whose record is still being written are listed too:
    /// the receiver has them.
    public func deliveredNotifications() -> [DeliveredNotification] {
        deliveredInFlight.isEmpty ? delivered : delivered + Array(deliveredInFlight)
    }

    /// Removes delivered notifications by request identifier.
    public func removeDeliveredNotifications(withIdentifiers identifiers: [String]) async throws {
        try await commit([.removeDelivered(identifiers)]) {
            let set = Set(identifiers)
            self.delivered.removeAll { set.contains($0.request.identifier) }
        }
    }

    /// Removes every delivered notification.
    public func removeAllDeliveredNotifications() async throws {
        try await commit([.removeDelivered(nil)]) { self.delivered.removeAll() }
    }
}
