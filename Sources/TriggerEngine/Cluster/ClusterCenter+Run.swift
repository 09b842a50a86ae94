#if PostgreSQL
import Foundation
@_spi(Internals) import TriggerEngine
internal import PostgresNIO

/// The node's run loop: claim what is due, hand it over, finish it; sleep
/// until the next fire, a lease to expire, a wake-up by NOTIFY, or the poll
/// interval, whichever comes first.
extension ClusterCenter {
    struct ClusterRunLoop {
        var isRunning = false
        var isStopping = false
        var sleep = LoopPause()
        /// A wake-up heard while the loop was awake: its next pause returns at once.
        var wokenAwake = false
        /// Fires handed over by this node (for tests and figures).
        var handedOver = 0
    }

    /// Runs until stopped (`stop()`) or cancelled: claims due fires, hands each
    /// to `handler`, and finishes it in the database once the handler returned.
    /// A handler that throws gets the fire again after the retry policy's
    /// backoff (on this node or another). Returns after the batch in flight is finished.
    /// - Throws: `CenterError.alreadyRunning`.
    public func run(delivering handler: @escaping @Sendable (Delivery) async throws -> Void) async throws {
        guard !runLoop.isRunning else { throw CenterError.alreadyRunning }
        runLoop.isRunning = true
        defer {
            runLoop.isRunning = false
            runLoop.isStopping = false
        }
        let listener = Task { await self.listen() }
        defer { listener.cancel() }
        let loop = Task { await self.loop(handler) }
        await withTaskCancellationHandler {
            await loop.value
        } onCancel: {
            Task { await self.stop() }
        }
    }

    /// Asks the run loop to return after the batch in flight.
    public func stop() {
        runLoop.isStopping = true
        wake()
    }

    /// How many fires this node has handed over since it started.
    public var handedOverCount: Int { runLoop.handedOver }

    private func loop(_ handler: @escaping @Sendable (Delivery) async throws -> Void) async {
        var failures = 0
        while !runLoop.isStopping {
            do {
                let delivered = try await deliverBatch(handler)
                failures = 0
                if delivered { continue }
                let next = try await store.nextWakeDate()
                let poll = clock.now().addingTimeInterval(configuration.pollInterval.seconds)
                await pause(until: min(next ?? poll, poll))
            } catch {
                // The database is away: try again with backoff, the fires wait in it.
                failures += 1
                let delay = retryPolicy.delay(afterAttempt: failures)
                await report(.storeFailed(DeliveryID(rawValue: "claim"), error: error, attempt: failures,
                                          retryAt: clock.now().addingTimeInterval(delay.seconds)))
                await pause(until: clock.now().addingTimeInterval(delay.seconds))
            }
        }
    }

    /// Claims one batch of due fires and delivers it.
    /// - Returns: whether anything was claimed.
    private func deliverBatch(_ handler: @escaping @Sendable (Delivery) async throws -> Void) async throws -> Bool {
        let now = clock.now()
        let owner = configuration.node
        let (fires, undecodable) = try await store.claimDue(owner: owner, through: now, limit: configuration.batchSize,
                                                            lease: configuration.lease)
        for (identifier, error) in undecodable {
            await report(.storeFailed(DeliveryID(rawValue: identifier), error: DataError(error), attempt: 1, retryAt: .distantFuture))
        }
        let events = try await store.claimEventFires(owner: owner, through: now, limit: configuration.batchSize,
                                                     lease: configuration.lease)
        guard !fires.isEmpty || !events.isEmpty || !undecodable.isEmpty else { return false }
        // Hand-overs stop at half the lease: what is left goes back before anyone could take it over.
        let deadline = ContinuousClock.now + configuration.lease / 2
        var finishes: [PostgresStore.Finish] = []
        var eventFinishes: [(id: DeliveryID, delivered: DeliveredNotification?)] = []
        var unhanded: [PostgresStore.ClaimedFire] = []
        for (index, fire) in fires.enumerated() {
            guard !runLoop.isStopping, ContinuousClock.now < deadline else {
                unhanded = Array(fires[index...])
                break
            }
            let id = DeliveryID.clockFire(identifier: fire.request.identifier, added: fire.request.added, due: fire.due)
            let next = nextFire(of: fire.request, after: fire.due)
            let outcome = await handOver(id: id, request: fire.request, recipient: fire.recipient, due: fire.due,
                                         authorization: fire.authorization, category: fire.category,
                                         regionEvent: nil, handler)
            switch outcome {
            case .done(let delivered):
                finishes.append(.init(identifier: fire.request.identifier, generation: fire.generation, nextFire: next,
                                      delivered: delivered))
            case .retry(let delay):
                try await store.postpone(identifier: fire.request.identifier, generation: fire.generation, owner: owner,
                                         for: delay)
            }
        }
        var unhandedEvents: [EventFire] = []
        for (index, claimed) in events.enumerated() {
            guard !runLoop.isStopping, ContinuousClock.now < deadline else {
                unhandedEvents = events[index...].map(\.fire)
                break
            }
            let fire = claimed.fire
            let outcome = await handOver(id: fire.id, request: fire.request, recipient: fire.recipient, due: fire.due,
                                         authorization: claimed.authorization, category: claimed.category,
                                         regionEvent: fire.regionEvent, handler)
            switch outcome {
            case .done(let delivered): eventFinishes.append((fire.id, delivered))
            case .retry(let delay): try await store.postponeEventFire(fire.id, owner: owner, for: delay)
            }
        }
        try await finish(finishes, events: eventFinishes)
        // Not handed over: back to the cluster at once.
        for fire in unhanded {
            try await store.postpone(identifier: fire.request.identifier, generation: fire.generation, owner: owner, for: .zero)
        }
        for fire in unhandedEvents { try await store.postponeEventFire(fire.id, owner: owner, for: .zero) }
        return true
    }

    /// Finishes handed-over fires; a failure is retried (the leases still
    /// hold them) until it is written or the node stops.
    private func finish(_ finishes: [PostgresStore.Finish], events: [(id: DeliveryID, delivered: DeliveredNotification?)]) async throws {
        guard !finishes.isEmpty || !events.isEmpty else { return }
        var attempt = 0
        while true {
            do {
                return try await store.finish(finishes, events: events, owner: configuration.node)
            } catch {
                attempt += 1
                let delay = retryPolicy.delay(afterAttempt: attempt)
                let id = finishes.first.map { DeliveryID(rawValue: $0.identifier) } ?? events[0].id
                await report(.storeFailed(id, error: error, attempt: attempt, retryAt: clock.now().addingTimeInterval(delay.seconds)))
                // Past the lease another node hands them over again: stop trying after it.
                if attempt >= 5 || runLoop.isStopping { throw error }
                try? await Task.sleep(for: delay)
            }
        }
    }

    enum HandOverOutcome {
        /// Finished: delivered (the notification) or spent without a delivery (`nil`).
        case done(DeliveredNotification?)
        /// The handler failed: try again after the delay.
        case retry(Duration)
    }

    /// Checks authorization and hands one fire over.
    private func handOver(id: DeliveryID, request: NotificationRequest, recipient: String, due: Date,
                          authorization: AuthorizationStatus?, category: NotificationCategory?, regionEvent: RegionEvent?,
                          _ handler: @Sendable (Delivery) async throws -> Void) async -> HandOverOutcome {
        let settings = NotificationSettings(authorizationStatus: authorization ?? .notDetermined, options: [])
        guard settings.allowsDelivery else {
            await report(.notDelivered(UndeliveredFire(id: id, request: request, recipient: recipient, due: due,
                                                       reason: .notAuthorized(settings.authorizationStatus))))
            return .done(nil)
        }
        let notification = DeliveredNotification(request: request, date: due, recipient: recipient)
        let presentation: PresentationOptions = settings.isQuiet ? [.list] : [.banner, .list, .sound, .badge]
        let delivery = Delivery(id: id, notification: notification, due: due,
                                triggerKind: request.trigger?.kind ?? .timeInterval, presentation: presentation,
                                regionEvent: regionEvent, category: category)
        do {
            try await handler(delivery)
        } catch {
            let attempt = attempts[id, default: 0] + 1
            attempts[id] = attempt
            let delay = retryPolicy.delay(afterAttempt: attempt)
            await report(.handOverFailed(delivery, error: error, attempt: attempt,
                                         retryAt: clock.now().addingTimeInterval(delay.seconds)))
            return .retry(delay)
        }
        attempts[id] = nil
        runLoop.handedOver += 1
        if category == nil && !request.content.categoryIdentifier.isEmpty { await report(.unknownCategory(delivery)) }
        return .done(notification)
    }

    /// A request's fire after the one due at `due`; `nil` when it is spent.
    /// Fires missed meanwhile (no node ran) follow its misfire policy.
    func nextFire(of request: NotificationRequest, after due: Date) -> Date? {
        guard let trigger = request.trigger, trigger.repeats else { return nil }
        let added = request.added ?? due
        guard let next = trigger.nextTriggerDate(after: due, addedAt: added, in: floatingZone) else { return nil }
        let now = clock.now()
        guard next < now, request.misfirePolicy != .fireAll else { return next }
        // Several fires missed: one now (`fireOnceNow`, already this one) and on from now.
        return trigger.nextTriggerDate(after: now, addedAt: added, in: floatingZone)
    }

    // MARK: Sleeping and waking

    private func pause(until date: Date) async {
        guard !runLoop.isStopping else { return }
        guard !runLoop.wokenAwake else {
            runLoop.wokenAwake = false
            return
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let pause = runLoop.sleep.begin(continuation, until: date)
            let clock = self.clock
            runLoop.sleep.arm(Task {
                try? await clock.sleep(date)
                self.runLoop.sleep.timerFired(pause)
            })
        }
    }

    /// Wakes the loop to claim again.
    func wake() { runLoop.sleep.wake() }

    /// A wake-up heard: a fire is due at `date` (seconds since 1970).
    private func heard(_ payload: String) {
        guard runLoop.sleep.isAsleep else {
            runLoop.wokenAwake = true
            return
        }
        if let seconds = Double(payload), let until = runLoop.sleep.sleepingUntil, until <= Date(storedSeconds: seconds) { return }
        wake()
    }

    /// Listens for wake-ups on a connection of its own, until cancelled;
    /// reconnects after a failure (the poll interval covers the gap).
    private func listen() async {
        while !Task.isCancelled {
            do {
                try await store.client.withConnection { connection in
                    try await connection.listen(on: PostgresStore.wakeChannel) { notifications in
                        for try await notification in notifications { self.heard(notification.payload) }
                    }
                }
            } catch {
                if Task.isCancelled { return }
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }
}
#endif
