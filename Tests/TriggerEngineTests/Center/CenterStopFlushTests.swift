import Foundation
import Testing
@_spi(Internals) @testable import TriggerEngine

/// A delivery's record joins the journal in the background after its handler
/// returns; `run()` must not return on `stop()` before it is written. (Found in
/// CI: under load, the README example's store lacked its last delivery after
/// the run had stopped.)
@Suite("UserNotificationCenter stop: the journal is written first")
struct CenterStopFlushTests {
    @Test func aStoppedRunHasWrittenTheRecordOfEveryDeliveryItHandedOver() async throws {
        let path = NotificationStoreTests.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try NotificationStore(path: path)
        let center = try await UserNotificationCenter.open(clock: ManualClock(now: NotificationStoreTests.start), store: store)
        try await center.requestAuthorization(options: [.alert])
        let released = LockedValue<Date?>(nil)
        let handed = AsyncStream<Void>.makeStream()
        await center.setDeliveryHandler { _ in
            // Another connection takes the file's lock for 0.5 s before the
            // handler returns, so the record's write has to wait for it.
            let until = Date().addingTimeInterval(0.5)
            released.set(until)
            try NotificationStoreTests.holdExclusiveLock(on: path, until: until)
            handed.continuation.yield()
        }
        let service = Task { try await center.run() }
        try await center.add(NotificationRequest(identifier: "now", content: NotificationContent(title: "n"), trigger: nil))
        for await _ in handed.stream { break }
        await center.stop()
        try await service.value
        let until = try #require(released.get())
        #expect(Date() >= until, "run() returned while the record was still waiting for the store")
        #expect(try store.loadDelivered().map(\.request.identifier) == ["now"])
        #expect(try store.loadPending().isEmpty)
    }
}

/// A value shared with a `@Sendable` closure.
private final class LockedValue<Value: Sendable>: @unchecked Sendable {
    // @unchecked: the lock guards `value`.
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func set(_ new: Value) { lock.withLock { value = new } }
    func get() -> Value { lock.withLock { value } }
}
