import Foundation
import GRDB
import GRDBSQLite
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// The bulk save binds values with SQLite's C API (`DirectBindings`), not GRDB's
/// arguments: every value kind survives the round trip, and a value SQLite
/// refuses is an error that leaves the store as it was.
@Suite("Direct bindings of a bulk save")
struct DirectBindingsTests {
    /// Seeded text that is hard on a C API: empty, U+0000 inside, combining
    /// marks, characters outside the BMP, and long runs.
    static func awkwardText(_ random: inout SplitMix64, nul: Bool = true) -> String {
        let pieces = ["", nul ? "\u{0}" : "0", nul ? "a\u{0}b" : "ab", "e\u{301}", "🇸🇮", "𝄞", "ü", ";=,", "\u{1F}x", "'\"", String(repeating: "z", count: 5_000)]
        return (0..<Int(random.next() % 4)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
    }

    @Test func awkwardTextAndExtremeNumbersRoundTrip() throws {
        var random = SplitMix64(seed: 41)
        let badges: [Int?] = [nil, 0, -1, Int.max, Int.min]
        let fires: [Date?] = [nil, Date(timeIntervalSince1970: -1e10), Date(timeIntervalSince1970: 0.000_001),
                              Date(timeIntervalSince1970: 4e12), Date(timeIntervalSince1970: 1_767_225_600.25)]
        let records = (0..<400).map { index -> ScheduledRequest in
            let content = NotificationContent(
                title: Self.awkwardText(&random), subtitle: Self.awkwardText(&random), body: Self.awkwardText(&random),
                badge: badges[index % badges.count], sound: index % 3 == 0 ? .named(Self.awkwardText(&random)) : nil,
                userInfo: index % 2 == 0 ? ["t": .string(Self.awkwardText(&random))] : [:],
                categoryIdentifier: Self.awkwardText(&random), threadIdentifier: Self.awkwardText(&random))
            let request = NotificationRequest(identifier: "\(index)" + Self.awkwardText(&random, nul: false), content: content,
                                              trigger: index % 2 == 0 ? nil : .push)
            return .init(request: request, recipient: Self.awkwardText(&random, nul: false), nextFire: fires[(index / 2) % fires.count])
        }
        let store = try NotificationStore(path: nil)
        try store.savePending(records)
        let loaded = try store.loadPending()
        #expect(loaded.count == records.count)
        for (stored, original) in zip(loaded, records) {
            #expect(stored.request == original.request, "\(original.request.identifier.debugDescription)")
            #expect(stored.recipient == original.recipient && stored.nextFire == original.nextFire)
        }
        #expect(loaded.filter { $0.request.content.title.utf8.contains(0) }.count > 20)
    }

    /// Keys are matched in SQL through GRDB, which would end them at U+0000:
    /// the store refuses them rather than touch another request's row.
    @Test func keyWithUPlus0000IsRefusedAndNoOtherRowIsTouched() throws {
        let store = try NotificationStore(path: nil)
        let a = ScheduledRequest(request: NotificationRequest(identifier: "a", content: NotificationContent(), trigger: nil),
                                                nextFire: nil)
        try store.savePending([a])
        let bad = ScheduledRequest(request: NotificationRequest(identifier: "a\u{0}b", content: NotificationContent(), trigger: nil),
                                                  nextFire: nil)
        let saveError = #expect(throws: DataError.self) { try store.savePending([bad]) }
        #expect(saveError?.message.contains("contains U+0000") == true, "\(String(describing: saveError))")
        #expect(throws: DataError.self) { try store.removePending(identifiers: ["a\u{0}b"]) }
        #expect(throws: DataError.self) { try store.saveSettings(NotificationSettings(authorizationStatus: .denied, options: []), for: "\u{0}") }
        #expect(throws: DataError.self) { try store.saveDeviceTokens(["00ff"], for: "bob\u{0}") }
        #expect(try store.loadPending().map(\.request.identifier) == ["a"])
    }

    /// A center whose store refuses an add keeps what it had: the request the
    /// add would have replaced is pending again, in memory as in the store.
    @Test func centerAddTheStoreRefusesLeavesTheReplacedRequestPending() async throws {
        let store = try NotificationStore(path: nil)
        let start = NotificationStoreTests.start
        let center = try UserNotificationCenter(now: start, store: store)
        try await center.setSettings(NotificationSettings(authorizationStatus: .authorized, options: [.alert]))
        let old = NotificationRequest(identifier: "x", content: NotificationContent(title: "old"),
                                      trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: 600, repeats: false)))
        try await center.add(old)
        let new = NotificationRequest(identifier: "x", content: NotificationContent(title: "new"),
                                      trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: 60, repeats: false)))
        await #expect(throws: DataError.self) { try await center.add(new, for: "bad\u{0}recipient") }
        #expect(await center.pendingNotificationRequests().map(\.content.title) == ["old"])
        #expect(try store.loadPending().map(\.request.content.title) == ["old"])
        let fired = try await center.advance(to: start.addingTimeInterval(3_600)).map(\.notification)
        #expect(fired.map(\.request.content.title) == ["old"])
        #expect(fired.map(\.date) == [start.addingTimeInterval(600)])
    }

    @Test func valueOverSQLitesLengthLimitIsAnErrorAndNothingIsHalfWritten() throws {
        let store = try NotificationStore(path: nil)
        let small = ScheduledRequest(request: NotificationRequest(identifier: "kept", content: NotificationContent(title: "hi"), trigger: nil),
                                                    nextFire: nil)
        try store.savePending([small])
        store.database.writeWithoutTransaction { db in
            _ = sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_LENGTH, 1_000)
        }
        let fine = ScheduledRequest(request: NotificationRequest(identifier: "fine", content: NotificationContent(), trigger: nil), nextFire: nil)
        let huge = ScheduledRequest(
            request: NotificationRequest(identifier: "huge", content: NotificationContent(body: String(repeating: "x", count: 2_000)), trigger: nil),
            nextFire: nil)
        let error = #expect(throws: DatabaseError.self) { try store.savePending([fine, huge]) }
        #expect(error?.resultCode == .SQLITE_TOOBIG, "\(String(describing: error))")
        #expect(try store.loadPending().map(\.request.identifier) == ["kept"])
    }
}
