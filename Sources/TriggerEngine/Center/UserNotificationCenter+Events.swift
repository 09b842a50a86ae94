import Foundation

/// Fires caused by events: location fixes and pushes. The event's fires are
/// stored before the call returns and handed over by the same path as clock
/// fires: by the run loop (or the next `advance(to:)`); in a simulation
/// (`init(now:…)`), before the call returns.
extension UserNotificationCenter {
    /// Feeds one location fix of `recipient`'s device: each pending location
    /// request of that recipient whose region the device enters or leaves
    /// (or dwells in, with dwell options) fires; a one-shot one then leaves
    /// the pending requests.
    ///
    /// Fixes of a device are taken in order, and only near the center's clock
    /// (`LocationPolicy`): anything else is refused with its reason. A
    /// location delivery's date is its fix's time, and it carries the event.
    ///
    /// In a simulation (`init(now:…)`), a fix ahead of the clock first moves
    /// it there, delivering what falls due on the way.
    /// - Returns: in a simulation, the deliveries made; otherwise `[]`: the
    ///   run loop delivers them.
    /// - Throws: `CenterError.fixRefused`, `CenterError.store` (the fix's
    ///   events are then lost, the device's state has moved on), or
    ///   `CenterError.interrupted` in the stepped mode.
    @discardableResult
    public func ingest(_ fix: LocationFix, for recipient: String = "") async throws -> [Delivery] {
        let earlier = try await catchUp(to: fix.time)
        let now = clock.now()
        if let refusal = refusal(of: fix, now: now) { throw CenterError.fixRefused(refusal) }
        let events: [RegionEvent]
        do {
            events = try locations.events(for: fix)
        } catch let error as DataError {
            throw CenterError.store(StoreError(classifying: error))
        }
        var fires: [EventFire] = []
        var consumed: [String] = []
        for event in events where (recipients[event.region] ?? "") == recipient && !consumed.contains(event.region) {
            guard let request = dispatcher.request(withIdentifier: event.region),
                  case .location(let trigger)? = request.trigger else { continue }
            fires.append(EventFire(id: .regionEvent(event, identifier: request.identifier), request: request,
                                   recipient: recipient, due: event.time, regionEvent: event))
            if !trigger.repeats { consumed.append(request.identifier) }
        }
        if !fires.isEmpty {
            var changes = fires.map(StoreChange.insertEventFire)
            if !consumed.isEmpty { changes.append(.removePending(consumed)) }
            try await commit(changes) {
                for fire in fires { self.insertEventFire(fire) }
                self.dispatcher.removePending(withIdentifiers: consumed)
                for identifier in consumed {
                    self.locations.remove(identifier: identifier)
                    self.recipients[identifier] = nil
                }
            }
        }
        return earlier + (try await deliverInSimulation(through: max(now, fix.time)))
    }

    /// Delivers a remote notification through the same path as local ones,
    /// at once (`UNPushNotificationTrigger`).
    /// - Parameters:
    ///   - payload: the APNs JSON payload (`aps.alert`, `aps.sound`, …), at most 4096 bytes.
    ///   - identifier: the notification's identifier (by default a new UUID).
    ///   - recipient: whose notification it is (its authorization and settings apply).
    ///   - date: when it arrived (default: the clock's now).
    /// - Returns: in a simulation, the deliveries made; otherwise `[]`: the run loop delivers them.
    /// - Throws: `DataError` for a payload over 4096 bytes or not in APNs form;
    ///   `CenterError.store`.
    @discardableResult
    public func receivePush(_ payload: Data, identifier: String = UUID().uuidString, for recipient: String = "",
                            at date: Date? = nil) async throws -> [Delivery] {
        let content = try PushPayload(data: payload).content
        let earlier = try await catchUp(to: date ?? clock.now())
        let date = date ?? clock.now()
        let request = NotificationRequest(identifier: identifier, content: content, trigger: .push, added: date)
        let fire = EventFire(id: .push(identifier: identifier, at: date), request: request, recipient: recipient,
                             due: date, regionEvent: nil)
        try await commit([.insertEventFire(fire)]) { self.insertEventFire(fire) }
        return earlier + (try await deliverInSimulation(through: max(clock.now(), date)))
    }

    /// In a simulation, moves the clock to an event's `date` when it is ahead,
    /// returning the deliveries made on the way.
    private func catchUp(to date: Date) async throws -> [Delivery] {
        guard isSimulation, !runLoop.isRunning, date > clock.now() else { return [] }
        return try await advance(to: date)
    }

    /// A simulation delivers what is due at once; a live center leaves it to its run loop.
    private func deliverInSimulation(through date: Date) async throws -> [Delivery] {
        guard isSimulation, !runLoop.isRunning else { return [] }
        return try await deliverDue(through: date)
    }

    /// Queues an event fire in the order fires are tried.
    private func insertEventFire(_ fire: EventFire) {
        let date = eventFireDate(fire)
        let index = eventFires.firstIndex { eventFireDate($0) > date } ?? eventFires.endIndex
        eventFires.insert(fire, at: index)
    }

    /// Why `fix` cannot be taken now, `nil` when it can.
    func refusal(of fix: LocationFix, now: Date) -> LocationFixRefusal? {
        locationPolicy.refusal(of: fix, after: locations.lastFix(of: fix.device), now: now)
    }
}
