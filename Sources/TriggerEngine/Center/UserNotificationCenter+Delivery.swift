import Foundation

/// Firing: the clock, location fixes, pushes, and the one delivery path they share.
extension UserNotificationCenter {
    /// Fires everything due through `date` on the virtual clock, in time order.
    /// - Returns: the deliveries made (denied recipients' fires are counted, not returned).
    public func advance(to date: Date) async throws -> [Delivery] {
        var fires: [Dispatcher.Fire] = []
        dispatcher.advance(to: date) { fires.append($0) }
        var deliveries: [Delivery] = []
        for fire in fires {
            if let delivery = try await deliver(fire.request, kind: fire.request.trigger?.kind ?? "timeInterval",
                                                at: fire.date, keepPending: fire.nextDate != nil, nextFire: fire.nextDate) {
                deliveries.append(delivery)
            }
        }
        return deliveries
    }

    /// Runs on the real clock until the task is cancelled: sleeps until the next
    /// due instant (at most a minute, so requests added meanwhile are seen) and
    /// hands each delivery to `onDelivery`.
    public func run(onDelivery: @Sendable (Delivery) async -> Void) async throws {
        while !Task.isCancelled {
            let wake = min(dispatcher.nextFireDate ?? .distantFuture, Date().addingTimeInterval(60))
            let wait = wake.timeIntervalSinceNow
            if wait > 0 { try await Task.sleep(for: .milliseconds(Int((wait * 1000).rounded(.up)))) }
            for delivery in try await advance(to: Date()) { await onDelivery(delivery) }
        }
    }

    /// Feeds one location fix: location requests whose region the device of
    /// `recipient` enters or leaves fire (one-shot ones are then removed).
    /// Fires due on the clock up to the fix's time fire first.
    public func ingest(_ fix: LocationFix, recipient: String = "") async throws -> [Delivery] {
        var deliveries = try await advance(to: fix.time)
        if locationDirty { try rebuildLocationMonitor() }
        defer { lastFixes[fix.device] = fix }
        guard let monitor = locationMonitor else { return deliveries }
        for event in monitor.ingest(fix) {
            guard (recipients[event.region] ?? "") == recipient,
                  let request = dispatcher.fireEvent(identifier: event.region, at: event.time) else { continue }
            if !(request.trigger?.repeats ?? false) { locationDirty = true }
            if let delivery = try await deliver(request, kind: "location", at: event.time,
                                                keepPending: request.trigger?.repeats == true, nextFire: nil) {
                deliveries.append(delivery)
            }
        }
        return deliveries
    }

    /// Delivers a remote notification at once through the same path as local
    /// ones (fires due on the clock before `date` go first).
    /// - Returns: the deliveries made, the push last (absent when denied).
    /// - Throws: `DataError` for a payload over 4096 bytes or not in APNs form.
    public func receivePush(_ payload: Data, identifier: String = UUID().uuidString, for recipient: String = "",
                            at date: Date) async throws -> [Delivery] {
        let content = try PushPayload(data: payload).content
        var deliveries = try await advance(to: date)
        recipients[identifier] = recipient.isEmpty ? nil : recipient
        let request = NotificationRequest(identifier: identifier, content: content, trigger: .push, added: date)
        if let delivery = try await deliver(request, kind: "push", at: date, keepPending: false, nextFire: nil,
                                            pending: false) {
            deliveries.append(delivery)
        }
        return deliveries
    }

    /// The single delivery path: authorization, sound rule, presentation,
    /// persistence (one transaction) and the delivered list.
    /// - Parameters:
    ///   - keepPending: the request stays pending (repeating), at `nextFire`
    ///     (`nil` for a location request, which waits for the next event).
    ///   - pending: whether the request was a stored pending one (a push is not).
    func deliver(_ request: NotificationRequest, kind: String, at date: Date, keepPending: Bool, nextFire: Date?,
                 pending: Bool = true) async throws -> Delivery? {
        let recipient = recipients[request.identifier] ?? ""
        if !keepPending { recipients[request.identifier] = nil }
        let recipientSettings = notificationSettings(for: recipient)
        var request = request
        if case .named(let name)? = request.content.sound, let directory = soundDirectory {
            // Apple: a custom sound longer than 30 seconds plays the default sound instead.
            let duration = SoundFile.duration(of: directory.appendingPathComponent(name))
            if duration == nil || duration! > NotificationSound.maximumDuration { request.content.sound = .default }
        }
        let notification = DeliveredNotification(request: request, date: date, recipient: recipient)
        guard recipientSettings.allowsDelivery else {
            deniedCount += 1
            try store?.recordFire(identifier: request.identifier, delivered: nil, pending: pending,
                                  keepPending: keepPending, nextFire: nextFire)
            return nil
        }
        try store?.recordFire(identifier: request.identifier, delivered: notification, pending: pending,
                              keepPending: keepPending, nextFire: nextFire)
        delivered.append(notification)
        let presentation: PresentationOptions
        if recipientSettings.isQuiet {
            presentation = [.list]
        } else if foregroundRecipients.contains(recipient) {
            presentation = await delegate?.willPresent(notification) ?? []
        } else {
            presentation = [.banner, .list, .sound, .badge]
        }
        return Delivery(notification: notification, triggerKind: kind, presentation: presentation)
    }

    func rebuildLocationMonitor() throws {
        let regions = dispatcher.pendingRequests.compactMap { request -> MonitoredRegion? in
            guard case .location(let trigger)? = request.trigger else { return nil }
            return MonitoredRegion(identifier: request.identifier, trigger: trigger)
        }
        locationMonitor = regions.isEmpty ? nil : try RegionMonitor(regions: regions)
        locationDirty = false
        // The new monitor starts knowing nothing; each device's latest fix, replayed
        // without firing, puts it back inside the regions it is in (a first fix fires
        // no entry), so its next fix outside fires the exit the old monitor would have.
        if let monitor = locationMonitor {
            for fix in lastFixes.values.sorted(by: { $0.time < $1.time }) { _ = monitor.ingest(fix) }
        }
    }
}
