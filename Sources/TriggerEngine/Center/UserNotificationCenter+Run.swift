import Foundation
import ServiceLifecycle

/// The live center: a loop that sleeps until the next fire and hands each
/// delivery to the handler.
extension UserNotificationCenter {
    /// What the run loop is doing.
    struct RunLoopState {
        var isRunning = false
        /// A graceful shutdown or `stop()` was asked for.
        var isStopping = false
        /// The loop's sleep: ended by a wake-up, by its clock deadline, or on stop.
        var sleep = LoopPause()
        /// Callers of `waitUntilIdle()`.
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Runs until cancelled or stopped (`stop()`, or a graceful shutdown when
    /// it runs in a swift-service-lifecycle `ServiceGroup`): sleeps until the
    /// next fire and hands each delivery to the handler set with
    /// `setDeliveryHandler(_:)`. Returns normally after the delivery in flight.
    ///
    /// A request with no trigger is delivered at once; an add, replace or
    /// remove that changes the next fire wakes the loop; a handler that throws
    /// gets the same delivery again with backoff while other fires go on.
    /// - Throws: `CenterError.alreadyRunning`, `CenterError.noDeliveryHandler`.
    public func run() async throws {
        guard !runLoop.isRunning else { throw CenterError.alreadyRunning }
        guard let handler = deliveryHandler else { throw CenterError.noDeliveryHandler }
        runLoop.isRunning = true
        defer {
            runLoop.isRunning = false
            runLoop.isStopping = false
        }
        // The loop runs in a task of its own: cancelling `run()` must not cut a
        // hand-over short; it asks the loop to stop after the one in flight.
        let loop = Task { await self.loop(handler) }
        await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                await loop.value
            } onCancel: {
                Task { await self.stop() }
            }
        } onGracefulShutdown: {
            Task { await self.stop() }
        }
        // The records of the last deliveries join the journal in the
        // background: written before `run()` returns, so that a stopped
        // center's store holds every delivery it handed over.
        await drainJournal(waitingAtMost: Self.shutdownFlushLimit)
    }

    /// How long a stopping run loop waits for the store to take the journal:
    /// a store that keeps failing must not hold a SIGTERM up for ever (what is
    /// not written then is delivered again after a restart, with the same IDs).
    static let shutdownFlushLimit: Duration = .seconds(10)

    /// Waits until every change queued so far is written and applied, or
    /// `limit` has passed (real time: the store's, not the center's clock).
    func drainJournal(waitingAtMost limit: Duration) async {
        let deadline = ContinuousClock.now + limit
        while (journal.isDraining || !journal.entries.isEmpty), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(2))
        }
    }

    /// Sets the delivery handler and runs (see `run()`).
    public func run(delivering handler: @escaping @Sendable (Delivery) async throws -> Void) async throws {
        deliveryHandler = handler
        try await run()
    }

    /// Asks the run loop to return after the delivery in flight. Asked before
    /// `run()` starts, it makes that run return at once.
    public func stop() {
        runLoop.isStopping = true
        wakeRunLoop()
        // Nothing will be delivered any more: those waiting for idle wait no longer.
        for waiter in runLoop.idleWaiters { waiter.resume() }
        runLoop.idleWaiters.removeAll()
    }

    /// Whether `run()` is running.
    public var isRunning: Bool { runLoop.isRunning }

    private func loop(_ handler: @escaping @Sendable (Delivery) async throws -> Void) async {
        while !runLoop.isStopping {
            let step = await deliverOne(through: clock.now(), handler)
            if case .idle = step { await pause(until: nextWakeDate()) }
        }
    }

    /// One step of the live loop in the delivery lane.
    private func deliverOne(through date: Date, _ handler: @escaping @Sendable (Delivery) async throws -> Void) async -> Step {
        await enterLane()
        defer { leaveLane() }
        return (try? await deliverNext(through: date, handOver: .handler(handler))) ?? .skipped
    }

    /// When the loop must look again: the next clock fire or event fire.
    func nextWakeDate() -> Date? {
        let event = eventFires.lazy.filter { !self.eventFiresHeld.contains($0.id) }.map(eventFireDate).min()
        switch (dispatcher.nextFireDate, event) {
        case let (clockFire?, event?): return min(clockFire, event)
        case let (date?, nil), let (nil, date?): return date
        case (nil, nil): return nil
        }
    }

    /// Sleeps until `date` on the center's clock (forever when `nil`), or until woken.
    private func pause(until date: Date?) async {
        guard !runLoop.isStopping else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let pause = runLoop.sleep.begin(continuation, until: date)
            if let date {
                let clock = self.clock
                runLoop.sleep.arm(Task {
                    try? await clock.sleep(date)
                    self.runLoop.sleep.timerFired(pause)
                })
            }
        }
    }

    /// Wakes the loop to look at the queue again.
    func wakeRunLoop() { runLoop.sleep.wake() }

    /// Wakes the loop if it sleeps past `date`.
    func wakeRunLoop(ifEarlierThan date: Date) {
        guard runLoop.sleep.isAsleep else { return }
        if let until = runLoop.sleep.sleepingUntil, until <= date { return }
        wakeRunLoop()
    }

    /// After changes were applied: wake the loop if the next fire moved
    /// earlier, and those waiting for the center to fall idle if it did.
    func afterJournalApplied() {
        if isIdle, !runLoop.idleWaiters.isEmpty {
            for waiter in runLoop.idleWaiters { waiter.resume() }
            runLoop.idleWaiters.removeAll()
        }
        guard runLoop.sleep.isAsleep, let next = nextWakeDate() else { return }
        wakeRunLoop(ifEarlierThan: next)
    }

    /// Whether nothing is left to deliver: no pending request and no event fire.
    public var isIdle: Bool { dispatcher.pendingCount == 0 && eventFires.isEmpty }

    /// Returns once nothing is left to deliver (at once when nothing is): no
    /// pending request, no event fire; or once `stop()` was called. A
    /// repeating request keeps it waiting.
    public func waitUntilIdle() async {
        guard !isIdle else { return }
        await withCheckedContinuation { runLoop.idleWaiters.append($0) }
    }
}

/// The center as a swift-service-lifecycle service: in a `ServiceGroup`, a
/// graceful shutdown (SIGTERM) makes `run()` return after the delivery in flight.
extension UserNotificationCenter: Service {}
