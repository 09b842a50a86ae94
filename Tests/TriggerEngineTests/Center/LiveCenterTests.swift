import Foundation
import GRDB
import Logging
import ServiceLifecycle
import Synchronization
import Testing
@_spi(Internals) @testable import TriggerEngine

/// What a live center handed over, in order, for tests to wait on.
final class DeliveryRecorder: Sendable {
    private let state = Mutex<(deliveries: [Delivery], issues: [CenterIssue])>(([], []))
    /// Fails the first `failures` hand-overs of each listed identifier.
    private let failing = Mutex<[String: Int]>([:])

    var deliveries: [Delivery] { state.withLock { $0.deliveries } }
    var identifiers: [String] { deliveries.map(\.notification.request.identifier) }
    var issues: [CenterIssue] { state.withLock { $0.issues } }

    func fail(_ identifier: String, times: Int) { failing.withLock { $0[identifier] = times } }

    struct HandOverRefused: Error {}

    func handle(_ delivery: Delivery) throws {
        let refuse = failing.withLock { failing -> Bool in
            guard let left = failing[delivery.notification.request.identifier], left > 0 else { return false }
            failing[delivery.notification.request.identifier] = left - 1
            return true
        }
        if refuse { throw HandOverRefused() }
        state.withLock { $0.deliveries.append(delivery) }
    }

    func record(_ issue: CenterIssue) { state.withLock { $0.issues.append(issue) } }

    /// Installs this recorder as `center`'s handlers.
    func attach(to center: UserNotificationCenter) async {
        await center.setDeliveryHandler { try self.handle($0) }
        await center.setIssueHandler { self.record($0) }
    }
}

/// Polls `condition` every millisecond until it holds or `seconds` pass.
func eventually(within seconds: Double = 10, _ condition: () async -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return await condition()
}

@Suite("UserNotificationCenter live")
struct LiveCenterTests {
    static let start = Date(timeIntervalSince1970: 1_767_225_600) // 2026-01-01T00:00:00Z

    static func request(_ id: String, after seconds: Double? = nil, repeats: Bool = false) throws -> NotificationRequest {
        NotificationRequest(identifier: id, content: NotificationContent(title: id),
                            trigger: try seconds.map { .timeInterval(try TimeIntervalTrigger(timeInterval: $0, repeats: repeats)) })
    }

    /// A center on a manual clock with a recorder, running.
    static func running(store: NotificationStore? = nil) async throws
        -> (UserNotificationCenter, ManualClock, DeliveryRecorder, Task<Void, any Error>) {
        let clock = ManualClock(now: start)
        let center = try UserNotificationCenter(clock: clock, store: store)
        try await center.requestAuthorization(options: [.alert])
        let recorder = DeliveryRecorder()
        await recorder.attach(to: center)
        let task = Task { try await center.run() }
        #expect(await eventually { await center.isRunning })
        return (center, clock, recorder, task)
    }

    /// Waits until the run loop sleeps until `date` (nothing due before it).
    static func sleeps(_ clock: ManualClock, until date: Date?) async -> Bool {
        await eventually { clock.nextDeadline == date }
    }

    @Test func runLoopSleepsUntilTheNextFireAndNoLonger() async throws {
        let (center, clock, recorder, task) = try await Self.running()
        try await center.add(Self.request("a", after: 30))
        #expect(await Self.sleeps(clock, until: Self.start.addingTimeInterval(30)))
        clock.advance(to: Self.start.addingTimeInterval(29.999))
        #expect(await Self.sleeps(clock, until: Self.start.addingTimeInterval(30)))
        #expect(recorder.deliveries.isEmpty)
        clock.advance(to: Self.start.addingTimeInterval(30))
        #expect(await eventually { recorder.identifiers == ["a"] })
        #expect(recorder.deliveries.first?.due == Self.start.addingTimeInterval(30))
        #expect(await Self.sleeps(clock, until: nil))
        task.cancel()
        try await task.value
    }

    @Test func anAddDueSoonerWakesTheLoopAndNoTriggerIsDeliveredAtOnce() async throws {
        let (center, clock, recorder, task) = try await Self.running()
        try await center.add(Self.request("late", after: 3_600))
        #expect(await Self.sleeps(clock, until: Self.start.addingTimeInterval(3_600)))
        clock.advance(by: .seconds(10))
        try await center.add(Self.request("soon", after: 5))
        // Counted from the add (at +10 s), not from the clock's start.
        #expect(await Self.sleeps(clock, until: Self.start.addingTimeInterval(15)))
        try await center.add(Self.request("now"))
        #expect(await eventually { recorder.identifiers == ["now"] })
        clock.advance(to: Self.start.addingTimeInterval(15))
        #expect(await eventually { recorder.identifiers == ["now", "soon"] })
        // Removing the next fire lets the loop sleep until the one after.
        try await center.add(Self.request("gone", after: 100))
        #expect(await Self.sleeps(clock, until: Self.start.addingTimeInterval(115)))
        try await center.removePendingNotificationRequests(withIdentifiers: ["gone"])
        clock.advance(to: Self.start.addingTimeInterval(200))
        #expect(await Self.sleeps(clock, until: Self.start.addingTimeInterval(3_600)))
        #expect(recorder.identifiers == ["now", "soon"])
        task.cancel()
        try await task.value
    }

    @Test func cancellationReturnsNormallyAfterTheDeliveryInFlight() async throws {
        let clock = ManualClock(now: Self.start)
        let center = try UserNotificationCenter(clock: clock)
        try await center.requestAuthorization(options: [.alert])
        let entered = Mutex(false), release = Mutex(false), finished = Mutex<[String]>([])
        await center.setDeliveryHandler { delivery in
            entered.withLock { $0 = true }
            while !release.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(1)) }
            finished.withLock { $0.append(delivery.notification.request.identifier) }
        }
        let task = Task { try await center.run() }
        try await center.add(Self.request("slow"))
        try await center.add(Self.request("next"))
        #expect(await eventually { entered.withLock { $0 } })
        task.cancel()
        try? await Task.sleep(for: .milliseconds(20))
        release.withLock { $0 = true }
        try await task.value
        // The delivery in flight finished and was recorded; the next one waits.
        #expect(finished.withLock { $0 } == ["slow"])
        #expect(await center.deliveredNotifications().map(\.request.identifier) == ["slow"])
        #expect(await center.pendingNotificationRequests().map(\.identifier) == ["next"])
        #expect(await !center.isRunning)
    }

    @Test func aHandlerThatThrowsGetsTheSameDeliveryAgainWithBackoffWhileOthersGoOn() async throws {
        let (center, clock, recorder, task) = try await Self.running()
        await center.setRetryPolicy(DeliveryRetryPolicy(initial: .seconds(1), maximum: .seconds(4)))
        recorder.fail("flaky", times: 3)
        try await center.add(Self.request("flaky", after: 10))
        try await center.add(Self.request("steady", after: 11))
        clock.advance(to: Self.start.addingTimeInterval(10))
        // Failed once: tried again 1 s later; meanwhile "steady" is delivered at 11.
        #expect(await Self.sleeps(clock, until: Self.start.addingTimeInterval(11)))
        clock.advance(to: Self.start.addingTimeInterval(11))
        #expect(await eventually { recorder.identifiers == ["steady"] })
        // Failed at 11 again (attempt 2): next try 2 s later, then 4 s after that.
        #expect(await Self.sleeps(clock, until: Self.start.addingTimeInterval(13)))
        clock.advance(to: Self.start.addingTimeInterval(13))
        #expect(await Self.sleeps(clock, until: Self.start.addingTimeInterval(17)))
        clock.advance(to: Self.start.addingTimeInterval(17))
        #expect(await eventually { recorder.identifiers == ["steady", "flaky"] })
        let flaky = recorder.deliveries[1]
        #expect(flaky.due == Self.start.addingTimeInterval(10))
        let failed = recorder.issues.compactMap { issue -> (DeliveryID, Int)? in
            if case .handOverFailed(let delivery, _, let attempt, _) = issue { return (delivery.id, attempt) }
            return nil
        }
        #expect(failed.map(\.1) == [1, 2, 3])
        #expect(Set(failed.map(\.0)) == [flaky.id])
        #expect(await center.pendingNotificationRequests().isEmpty)
        task.cancel()
        try await task.value
    }

    /// A store that fails to record a delivery leaves the fire due, in memory
    /// and on disk; the record is retried and the handler is not called twice.
    @Test func aStoreThatFailsLeavesTheFireDueAndTheRecordIsRetried() async throws {
        let path = NotificationStoreTests.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try NotificationStore(path: path)
        let (center, clock, recorder, task) = try await Self.running(store: store)
        await center.setRetryPolicy(DeliveryRetryPolicy(initial: .milliseconds(20), maximum: .milliseconds(20)))
        try await center.add(Self.request("once", after: 60))
        try await store.database.write { db in
            try db.execute(sql: "CREATE TRIGGER refuse BEFORE INSERT ON delivered BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END")
        }
        clock.advance(to: Self.start.addingTimeInterval(60))
        #expect(await eventually { recorder.identifiers == ["once"] })
        #expect(await eventually {
            recorder.issues.contains { if case .storeFailed = $0 { return true } else { return false } }
        })
        // Still due, in memory and in the file.
        #expect(await center.pendingNotificationRequests().map(\.identifier) == ["once"])
        #expect(try store.loadPending().map { $0.nextFire } == [Self.start.addingTimeInterval(60)])
        try await store.database.write { db in try db.execute(sql: "DROP TRIGGER refuse") }
        #expect(await eventually { await center.pendingNotificationRequests().isEmpty })
        #expect(try store.loadPending().isEmpty)
        #expect(try store.loadDelivered().map(\.request.identifier) == ["once"])
        #expect(recorder.identifiers == ["once"])
        task.cancel()
        try await task.value
    }

    /// `advance(to:)` with the store locked: it stops at the first fire it
    /// cannot record, returns what it delivered in the error, and the rest
    /// stay due; the next `advance` delivers them.
    @Test func advanceStopsOnAStoreFailureWithTheDeliveriesMadeAndLosesNothing() async throws {
        let path = NotificationStoreTests.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try NotificationStore(path: path)
        let center = try UserNotificationCenter(now: Self.start, store: store)
        try await center.requestAuthorization(options: [.alert])
        for (index, id) in ["a", "b", "c"].enumerated() { try await center.add(Self.request(id, after: Double(60 * (index + 1)))) }
        try await store.database.write { db in
            try db.execute(sql: "CREATE TRIGGER refuse BEFORE INSERT ON delivered WHEN NEW.identifier = 'b' BEGIN SELECT RAISE(ABORT, 'locked (test)'); END")
        }
        do {
            _ = try await center.advance(to: Self.start.addingTimeInterval(600))
            Issue.record("advance should stop at b")
        } catch CenterError.interrupted(let deliveries, let underlying) {
            // The fire delivered before the failure comes back to the caller.
            #expect(deliveries.map(\.notification.request.identifier) == ["a"])
            #expect(underlying.kind == .refused && underlying.message.contains("locked (test)"), "\(underlying)")
        }
        #expect(try store.loadDelivered().map(\.request.identifier) == ["a"])
        #expect(await center.pendingNotificationRequests().map(\.identifier) == ["b", "c"])
        #expect(try store.loadPending().map(\.request.identifier) == ["b", "c"])
        try await store.database.write { db in try db.execute(sql: "DROP TRIGGER refuse") }
        let rest = try await center.advance(to: Self.start.addingTimeInterval(600))
        #expect(rest.map(\.notification.request.identifier) == ["b", "c"])
        #expect(try store.loadDelivered().map(\.request.identifier) == ["a", "b", "c"])
    }

    /// A store that cannot be read when a center opens it: the caller gets
    /// `CenterError.store` with a `StoreError`, GRDB's error only inside it.
    @Test func aStoreThatCannotBeReadOpensAsCenterErrorStore() async throws {
        let store = try NotificationStore(path: nil)
        try await store.database.write { db in try db.execute(sql: "DROP TABLE delivered") }
        do {
            _ = try UserNotificationCenter(now: Self.start, store: store)
            Issue.record("a store without its delivered table opened")
        } catch CenterError.store(let underlying) {
            #expect(underlying.message.contains("delivered"), "\(underlying)")
            #expect(underlying.kind == .other && underlying.underlying is DatabaseError, "\(underlying)")
        }
    }

    /// A request removed while the delegate chooses its presentation is not handed over.
    @Test func aRequestRemovedWhileTheDelegateChoosesIsNotHandedOver() async throws {
        final class SlowDelegate: UserNotificationCenterDelegate, @unchecked Sendable {
            // @unchecked: the flags are Mutexes.
            let asked = Mutex(false), answer = Mutex(false)
            func willPresent(_ notification: DeliveredNotification) async -> PresentationOptions {
                asked.withLock { $0 = true }
                while !answer.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(1)) }
                return [.banner]
            }
            func didReceive(_ response: NotificationResponse) async {}
        }
        let (center, _, recorder, task) = try await Self.running()
        let delegate = SlowDelegate()
        await center.setDelegate(delegate)
        await center.setForeground(true)
        try await center.add(Self.request("doomed"))
        #expect(await eventually { delegate.asked.withLock { $0 } })
        try await center.removePendingNotificationRequests(withIdentifiers: ["doomed"])
        delegate.answer.withLock { $0 = true }
        #expect(await eventually {
            recorder.issues.contains {
                if case .notDelivered(let fire) = $0 { return fire.reason == .removedInFlight } else { return false }
            }
        })
        #expect(recorder.deliveries.isEmpty)
        #expect(await center.deliveredNotifications().isEmpty)
        task.cancel()
        try await task.value
    }

    @Test func aFireForARecipientNotAuthorizedIsReportedAndSpent() async throws {
        let clock = ManualClock(now: Self.start)
        let center = try UserNotificationCenter(clock: clock)
        let recorder = DeliveryRecorder()
        await recorder.attach(to: center)
        let task = Task { try await center.run() }
        try await center.add(Self.request("unasked", after: 1))
        try await center.add(Self.request("daily", after: 86_400, repeats: true))
        clock.advance(by: .seconds(86_400))
        #expect(await eventually { recorder.issues.count == 2 })
        let reasons = recorder.issues.compactMap { issue -> String? in
            guard case .notDelivered(let fire) = issue else { return nil }
            return "\(fire.request.identifier): \(fire.reason)"
        }
        #expect(reasons == ["unasked: recipient not authorized (notDetermined)", "daily: recipient not authorized (notDetermined)"])
        #expect(recorder.deliveries.isEmpty)
        // As on Apple's devices: the one-shot is gone, the repeating one moved on.
        #expect(await center.pendingNotificationRequests().map(\.identifier) == ["daily"])
        #expect(await center.nextFireDate(ofIdentifier: "daily") == Self.start.addingTimeInterval(2 * 86_400))
        #expect(await center.deniedCount == 2)
        task.cancel()
        try await task.value
    }

    /// Issue 12: one identifier replaced 100,000 times left a heap of 100,000.
    @Test func replacingOneIdentifierManyTimesKeepsTheHeapWithinTwiceThePending() async throws {
        let center = try UserNotificationCenter(now: Self.start)
        var largest = 0
        for round in 0..<20_000 {
            try await center.add(Self.request("same", after: Double(60 + round % 977)))
            if round % 1_000 == 0 { await center.checkQueueInvariants() }
            largest = max(largest, await center.queueHeapCount)
        }
        #expect(await center.pendingRequestCount() == 1)
        // Stale entries never outnumber live ones: at most twice the one pending.
        #expect(largest <= 2)
        await center.checkQueueInvariants()
    }

    @Test func serviceGroupGracefulShutdownEndsTheRunLoop() async throws {
        let clock = ManualClock(now: Self.start)
        let center = try UserNotificationCenter(clock: clock)
        try await center.requestAuthorization(options: [.alert])
        let recorder = DeliveryRecorder()
        await recorder.attach(to: center)
        try await center.add(Self.request("first"))
        try await center.add(Self.request("later", after: 3_600))
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [center],
                                                                          logger: Logger(label: "test")))
        let task = Task { try await group.run() }
        #expect(await eventually { recorder.identifiers == ["first"] })
        #expect(await Self.sleeps(clock, until: Self.start.addingTimeInterval(3_600)))
        await group.triggerGracefulShutdown()
        try await task.value
        #expect(await !center.isRunning)
        #expect(await center.pendingNotificationRequests().map(\.identifier) == ["later"])
    }
}
