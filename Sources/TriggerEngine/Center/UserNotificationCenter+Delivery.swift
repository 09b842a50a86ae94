import Foundation

/// The one delivery path: a due fire (on the clock, or from an event) is
/// checked (authorization, the sound rule, presentation), checked again if
/// anything was awaited, handed over, and only then recorded as done.
extension UserNotificationCenter {
    /// A fire ready to be taken: the dispatcher's earliest due one or the
    /// first event fire, whichever is due first (clock fires first at one instant).
    enum Candidate {
        case clock(Dispatcher.DueFire)
        case event(EventFire)

        var request: NotificationRequest {
            switch self {
            case .clock(let fire): return fire.request
            case .event(let fire): return fire.request
            }
        }

        var due: Date {
            switch self {
            case .clock(let fire): return fire.due
            case .event(let fire): return fire.due
            }
        }
    }

    /// How a delivery leaves the center.
    enum HandOver {
        /// Returned to the caller (`advance`, `ingest`, `receivePush`): recorded
        /// first, and a failed record stops the call.
        case returned
        /// Given to the delivery handler (`run`): recorded after the handler
        /// returned; a handler that throws gets it again later, a record that
        /// fails is written again later.
        case handler(@Sendable (Delivery) async throws -> Void)
    }

    /// What one step did.
    enum Step {
        /// Nothing is due through the limit.
        case idle
        /// A delivery was made (and recorded).
        case delivered(Delivery)
        /// A fire was spent without a delivery, or put back for a retry.
        case skipped
    }

    /// Fires everything due through `date`, in time order (event fires after
    /// clock fires of the same instant), then moves a manual clock to `date`.
    /// - Returns: the deliveries made (fires for recipients not authorized are
    ///   counted in `deniedCount` and reported, not returned).
    /// - Throws: `CenterError.interrupted` with the deliveries made so far when
    ///   the store fails; the fire it stopped at stays due.
    public func advance(to date: Date) async throws -> [Delivery] {
        clock.manual?.advance(to: date)
        return try await deliverDue(through: date)
    }

    /// Everything due through `date`, delivered and returned (the stepped mode).
    func deliverDue(through date: Date) async throws -> [Delivery] {
        await enterLane()
        defer { leaveLane() }
        var deliveries: [Delivery] = []
        while true {
            let step: Step
            do {
                step = try await deliverNext(through: date, handOver: .returned)
            } catch {
                throw CenterError.interrupted(deliveries: deliveries, underlying: StoreError(classifying: error))
            }
            switch step {
            case .idle:
                dispatcher.moveNow(to: date)
                return deliveries
            case .delivered(let delivery): deliveries.append(delivery)
            case .skipped: break
            }
        }
    }

    /// The earliest fire due through `limit`, without taking it.
    func nextCandidate(through limit: Date) -> Candidate? {
        let eventIndex = eventFires.indices.first {
            !eventFiresHeld.contains(eventFires[$0].id) && eventFireDate(eventFires[$0]) <= limit
        }
        if let clockFire = dispatcher.dueFire(through: limit) {
            guard let eventIndex, eventFireDate(eventFires[eventIndex]) < clockFire.date else { return .clock(clockFire) }
        }
        return eventIndex.map { .event(eventFires[$0]) }
    }

    /// When an event fire may be tried: at once (it came due when its event
    /// was taken), or at its retry instant after a failed hand-over.
    func eventFireDate(_ fire: EventFire) -> Date { eventRetries[fire.id] ?? .distantPast }

    /// Takes the next fire due through `limit` and delivers it.
    /// - Throws: with `.returned`, the store's error when recording failed (the
    ///   fire stays due). With `.handler`, nothing: failures are retried.
    func deliverNext(through limit: Date, handOver: HandOver) async throws -> Step {
        guard let candidate = nextCandidate(through: limit) else { return .idle }
        let request = candidate.request
        let recipient: String
        let id: DeliveryID
        let fireDate: Date
        var regionEvent: RegionEvent?
        switch candidate {
        case .clock(let fire):
            recipient = recipients[request.identifier] ?? ""
            id = .clockFire(identifier: request.identifier, added: request.added, due: fire.due)
            fireDate = fire.date
        case .event(let fire):
            recipient = fire.recipient
            id = fire.id
            fireDate = fire.due
            regionEvent = fire.regionEvent
        }
        let recipientSettings = notificationSettings(for: recipient)
        guard recipientSettings.allowsDelivery else {
            // Apple: a fire for an app not allowed to notify shows nothing, and is spent.
            try await record(candidate, delivered: nil, id: id, handOver: handOver)
            deniedCount += 1
            await report(.notDelivered(UndeliveredFire(id: id, request: request, recipient: recipient, due: candidate.due,
                                                       reason: .notAuthorized(recipientSettings.authorizationStatus))))
            return .skipped
        }
        var shown = request
        if case .named(let name)? = shown.content.sound, let directory = soundDirectory {
            // Apple: a custom sound longer than 30 seconds plays the default sound instead.
            if !soundDurations.isPlayable(name, in: directory) { shown.content.sound = .default }
        }
        let notification = DeliveredNotification(request: shown, date: fireDate, recipient: recipient)
        let presentation: PresentationOptions
        if recipientSettings.isQuiet {
            presentation = [.list]
        } else if foregroundRecipients.contains(recipient), let delegate {
            presentation = await delegate.willPresent(notification)
            // The request may have been removed or replaced while the delegate chose.
            guard isStillDue(candidate) else {
                await report(.notDelivered(UndeliveredFire(id: id, request: request, recipient: recipient,
                                                           due: candidate.due, reason: .removedInFlight)))
                return .skipped
            }
        } else {
            presentation = [.banner, .list, .sound, .badge]
        }
        let category = categories[shown.content.categoryIdentifier]
        let delivery = Delivery(id: id, notification: notification, due: candidate.due,
                                triggerKind: request.trigger?.kind ?? .timeInterval, presentation: presentation,
                                regionEvent: regionEvent, category: category)
        switch handOver {
        case .returned:
            try await record(candidate, delivered: notification, id: id, handOver: handOver)
        case .handler(let handler):
            do {
                try await handler(delivery)
            } catch {
                let attempt = attempts[id, default: 0] + 1
                attempts[id] = attempt
                let retryAt = clock.now().addingTimeInterval(retryPolicy.delay(afterAttempt: attempt).seconds)
                postpone(candidate, until: retryAt)
                await report(.handOverFailed(delivery, error: error, attempt: attempt, retryAt: retryAt))
                return .skipped
            }
            attempts[id] = nil
            try await record(candidate, delivered: notification, id: id, handOver: handOver)
        }
        if category == nil && !shown.content.categoryIdentifier.isEmpty { await report(.unknownCategory(delivery)) }
        return .delivered(delivery)
    }

    /// Whether a candidate is still the fire to deliver: its request was not
    /// removed or replaced (an event fire: not dropped) meanwhile.
    func isStillDue(_ candidate: Candidate) -> Bool {
        switch candidate {
        case .clock(let fire): return dispatcher.isCurrent(fire)
        case .event(let fire): return eventFires.contains { $0.id == fire.id } && !eventFiresHeld.contains(fire.id)
        }
    }

    /// Puts a fire whose hand-over failed back, to be tried at `date`.
    func postpone(_ candidate: Candidate, until date: Date) {
        switch candidate {
        case .clock(let fire): dispatcher.postpone(fire, until: date)
        case .event(let fire):
            eventRetries[fire.id] = date
            // Tried in the order of their next attempt.
            eventFires.sort { eventFireDate($0) < eventFireDate($1) }
        }
        wakeRunLoop(ifEarlierThan: date)
    }

    /// Records a fire as done: a clock fire's request moves on to its next
    /// fire or leaves, an event fire is forgotten, and the delivered
    /// notification (if any) is added, in one transaction.
    ///
    /// With `.returned`, the caller waits for the record, and a failure is
    /// thrown (the fire stays due). With `.handler`, the fire is held (taken off
    /// the queue, still pending) and its record joins the journal without
    /// waiting: the run loop goes on to the next fire, records of fires handed
    /// over together share a transaction, and a record the store refuses is
    /// retried with backoff until it is written (`Journal`). A crash before it
    /// is written leaves the fire due in the store: it is handed over again,
    /// with the same ID.
    private func record(_ candidate: Candidate, delivered notification: DeliveredNotification?, id: DeliveryID,
                        handOver: HandOver) async throws {
        var changes: [StoreChange] = []
        let apply: () -> Void
        switch candidate {
        case .clock(let fire):
            let next = dispatcher.nextFireDate(after: fire)
            changes.append(.firedPending(identifier: fire.request.identifier, added: fire.request.added, due: fire.due,
                                         nextFire: next))
            dispatcher.hold(fire)
            apply = {
                self.dispatcher.commit(fire)
                if self.dispatcher.request(withIdentifier: fire.request.identifier) == nil {
                    self.recipients[fire.request.identifier] = nil
                }
            }
        case .event(let fire):
            changes.append(.deleteEventFire(fire.id))
            eventFiresHeld.insert(fire.id)
            apply = {
                self.eventFires.removeAll { $0.id == fire.id }
                self.eventFiresHeld.remove(fire.id)
                self.eventRetries[fire.id] = nil
            }
        }
        if let notification { changes.append(.insertDelivered(notification)) }
        let inFlight: Bool
        if case .handler = handOver, let notification {
            deliveredInFlight.append(notification)
            inFlight = true
        } else {
            inFlight = false
        }
        let applyAll = {
            apply()
            if let notification {
                if inFlight { self.deliveredInFlight.removeFirst() }
                self.delivered.append(notification)
            }
        }
        guard case .handler = handOver else {
            do {
                return try await commit(changes, apply: applyAll)
            } catch {
                // Not recorded: due again.
                switch candidate {
                case .clock(let fire): dispatcher.unhold(fire)
                case .event(let fire): eventFiresHeld.remove(fire.id)
                }
                throw error
            }
        }
        commitRetrying(changes, apply: applyAll) { error, attempt, retryAt in
            await self.report(.storeFailed(id, error: error, attempt: attempt, retryAt: retryAt))
        }
    }
}
