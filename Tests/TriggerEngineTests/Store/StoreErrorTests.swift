import Foundation
import GRDB
import Testing
@_spi(Internals) @testable import TriggerEngine

/// Store failures reach the caller as `CenterError.store(StoreError)` whose
/// kind says what to do; the database library's error is only `underlying`.
@Suite("Store errors")
struct StoreErrorTests {
    static let start = Date(timeIntervalSince1970: 1_767_225_600)

    static func request(_ identifier: String, title: String = "t") throws -> NotificationRequest {
        NotificationRequest(identifier: identifier, content: NotificationContent(title: title),
                            trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: 60, repeats: false)))
    }

    /// A full disk (SQLite's page limit standing in for it): kind `.full`, and
    /// nothing of the batch is pending, in memory or in the file.
    @Test func aFullDiskIsKindFullAndTheBatchIsNotHalfAdded() async throws {
        let path = NotificationStoreTests.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try NotificationStore(path: path)
        let center = try UserNotificationCenter(now: Self.start, store: store)
        try await center.add(Self.request("kept"))
        try await store.database.write { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(pages + 2)")
        }
        let big = String(repeating: "x", count: 4_000)
        do {
            _ = try await center.add(contentsOf: try (0..<200).map { try Self.request("r\($0)", title: big) })
            Issue.record("200 requests of 4 kB fit in two pages")
        } catch CenterError.store(let error) {
            #expect(error.kind == .full, "\(error)")
            #expect(error.underlying != nil)
        }
        #expect(await center.pendingNotificationRequests().map(\.identifier) == ["kept"])
        #expect(try store.loadPending().map(\.request.identifier) == ["kept"])
    }

    /// A trigger that aborts the insert: the database refused the change (`.refused`).
    @Test func aChangeTheDatabaseRefusesIsKindRefused() async throws {
        let store = try NotificationStore(path: nil)
        let center = try UserNotificationCenter(now: Self.start, store: store)
        try await store.database.write { db in
            try db.execute(sql: "CREATE TRIGGER refuse BEFORE INSERT ON pending BEGIN SELECT RAISE(ABORT, 'no (test)'); END")
        }
        do {
            try await center.add(Self.request("a"))
            Issue.record("the insert was not refused")
        } catch CenterError.store(let error) {
            #expect(error.kind == .refused, "\(error)")
            #expect(error.message.contains("no (test)"), "\(error)")
        }
        #expect(await center.pendingNotificationRequests().isEmpty)
    }

    /// A store used after `close()`: kind `.closed`.
    @Test func aClosedStoreIsKindClosed() async throws {
        let store = try NotificationStore(path: nil)
        let center = try UserNotificationCenter(now: Self.start, store: store)
        try store.close()
        do {
            try await center.add(Self.request("a"))
            Issue.record("a closed store took an add")
        } catch CenterError.store(let error) {
            #expect(error.kind == .closed, "\(error)")
        }
    }
}
