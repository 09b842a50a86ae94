import Foundation
import Testing
@testable import TriggerEngine

@Suite("NotificationStore")
struct NotificationStoreTests {
    static let start = Date(timeIntervalSince1970: 1_767_225_600)

    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID()).sqlite").path
    }

    @Test func centerRestartKeepsPendingCategoriesDeliveredAndSettings() async throws {
        let path = Self.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        do {
            let center = try UserNotificationCenter(now: Self.start, store: try NotificationStore(path: path))
            try await center.requestAuthorization(options: [.alert])
            try await center.setNotificationCategories([NotificationCategory(identifier: "C", actions: [])])
            try await center.add(NotificationRequest(identifier: "once", content: NotificationContent(title: "1"),
                                                     trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: 60, repeats: false))))
            try await center.add(NotificationRequest(identifier: "hourly", content: NotificationContent(title: "h"),
                                                     trigger: .calendar(try CalendarTrigger(dateMatching: DateComponents(minute: 30), repeats: true)),
                                                     misfirePolicy: .skipToNext))
            try await center.add(NotificationRequest(identifier: "later", content: NotificationContent(title: "l"),
                                                     trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: 86_400, repeats: false))))
            let fired = try await center.advance(to: Self.start.addingTimeInterval(3_600))
            #expect(fired.map(\.notification.request.identifier) == ["once", "hourly"])
        }
        // Restart three hours later: "hourly" skips its missed 01:30 and 02:30 fires.
        let center = try UserNotificationCenter(now: Self.start.addingTimeInterval(3 * 3_600 + 60),
                                                store: try NotificationStore(path: path))
        #expect(await center.pendingNotificationRequests().map(\.identifier) == ["hourly", "later"])
        #expect(await center.deliveredNotifications().map(\.request.identifier) == ["once", "hourly"])
        #expect(await center.notificationCategories().map(\.identifier) == ["C"])
        #expect(await center.notificationSettings().authorizationStatus == .authorized)
        let next = try await center.advance(to: Self.start.addingTimeInterval(4 * 3_600))
        #expect(next.map(\.notification.date) == [Self.start.addingTimeInterval(3 * 3_600 + 1_800)])
    }

    @Test func savedRecordsReloadInAddOrderWithTheirNextFires() throws {
        let store = try NotificationStore(path: nil)
        var random = SplitMix64(seed: 11)
        var records: [NotificationStore.PendingRecord] = []
        for index in 0..<500 {
            let request = NotificationRequest(identifier: "r\(random.next() % 100_000)-\(index)",
                                              content: NotificationContent(title: "t\(index)", userInfo: ["i": .number(Double(index))]),
                                              trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: Double(60 + index), repeats: index % 2 == 0)))
            records.append(.init(request: request, recipient: "u\(index % 7)",
                                 nextFire: Self.start.addingTimeInterval(Double(random.next() % 1_000_000))))
        }
        try store.savePending(records)
        try store.savePending([records[3]]) // replacing moves it to the end
        let expected = records.enumerated().filter { $0.offset != 3 }.map(\.element) + [records[3]]
        let loaded = try store.loadPending()
        #expect(loaded.map(\.request) == expected.map(\.request))
        #expect(loaded.map(\.recipient) == expected.map(\.recipient))
        #expect(loaded.map(\.nextFire) == expected.map(\.nextFire))
    }
}
