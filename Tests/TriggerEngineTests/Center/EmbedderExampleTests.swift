import Foundation
import Testing
import TestSupport
import TriggerEngine

/// README's "Embedding the center" example, compiled and run as it is written
/// there (only the clock is a manual one here, and the test waits for the fires).
@Suite("README embedder example")
struct EmbedderExampleTests {
    @Test func theReadmeExampleRunsAndDelivers() async throws {
        let folder = ScratchFolder.path("embedder-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_767_256_200)) // 2026-01-01T08:30:00Z, 09:30 in Berlin
        let sent = SentNotifications()

        // --- README example begins ---
        let store = try NotificationStore(path: folder.appendingPathComponent("center.sqlite").path)
        let center = try await UserNotificationCenter.open(clock: clock, store: store)   // WallClock() in production

        // Who may be notified, and how they can answer.
        try await center.requestAuthorization(options: [.alert, .sound], for: "alice")
        let reply = NotificationAction(identifier: "REPLY", title: "Reply",
                                       textInput: .init(buttonTitle: "Send", placeholder: "Message"))
        try await center.setNotificationCategories([NotificationCategory(identifier: "CHAT", actions: [reply])])

        // One request of each trigger kind.
        let berlin = try ZoneRules.named("Europe/Berlin")
        let requests = [
            NotificationRequest(identifier: "now", content: NotificationContent(title: "Welcome"), trigger: nil),
            NotificationRequest(identifier: "tea", content: NotificationContent(title: "Tea is ready"),
                                trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: 180, repeats: false))),
            NotificationRequest(identifier: "standup", content: NotificationContent(title: "Stand-up", categoryIdentifier: "CHAT"),
                                trigger: .calendar(try CalendarTrigger(dateMatching: DateComponents(hour: 10, minute: 0),
                                                                       repeats: true, timeZone: .fixed(berlin)))),
            NotificationRequest(identifier: "rent", content: NotificationContent(title: "Pay the rent"),
                                trigger: .recurrence(try RecurrenceTrigger(rule: try RecurrenceRule(parsing: "FREQ=MONTHLY;BYMONTHDAY=1"),
                                                                           start: try LocalDateTime(year: 2026, month: 2, day: 1, hour: 8),
                                                                           timeZone: .fixed(berlin)))),
            NotificationRequest(identifier: "home", content: NotificationContent(title: "Welcome home"),
                                trigger: .location(LocationTrigger(region: try Region.circle(
                                    center: Coordinate(latitude: 52.52, longitude: 13.405), radius: 150), repeats: true))),
        ]
        for request in requests { try await center.add(request, for: "alice") }

        // Deliveries go to a handler; it returns once the notification is on its
        // way (here: handed to a push gateway). If it throws, the same delivery
        // (same `delivery.id`) comes again later; after a crash, at most the
        // deliveries in flight come again.
        await center.setDeliveryHandler { delivery in
            try await sent.push(delivery.notification, id: delivery.id)
        }
        let service = Task { try await center.run() }   // or put `center` in a ServiceGroup

        // Later: a remote notification arrives (the push trigger: delivered at once);
        // a device reports its position; a user answers a notification.
        try await center.receivePush(Data(#"{"aps":{"alert":{"title":"Build is green"}}}"#.utf8), identifier: "ci", for: "alice")
        try await center.ingest(LocationFix(device: "alice-phone", time: clock.date,
                                            coordinate: Coordinate(latitude: 52.53, longitude: 13.405)), for: "alice")
        // --- README example pauses: the test moves the clock an hour on, past 10:00 in Berlin ---
        #expect(await eventually { Set(sent.titles) == ["Welcome", "Build is green"] })
        clock.advance(by: .seconds(3_600))
        #expect(await eventually { sent.titles.count == 4 && sent.titles.suffix(2) == ["Tea is ready", "Stand-up"] })
        // --- README example resumes ---
        let response = try await center.respond(toIdentifier: "standup", action: "REPLY", text: "On my way", at: await center.now)
        await center.stop()                              // returns after the delivery in flight
        try await service.value
        // --- README example ends ---

        #expect(response?.userText == "On my way")
        #expect(sent.ids.count == 4 && Set(sent.ids).count == 4)
        // What an embedder sees after a restart on the same file.
        let reopened = try UserNotificationCenter(now: await center.now, store: try NotificationStore(path: folder.appendingPathComponent("center.sqlite").path))
        #expect(Set(await reopened.deliveredNotifications().map(\.request.identifier)) == ["now", "ci", "tea", "standup"])
        #expect(await reopened.pendingNotificationRequests().map(\.identifier).sorted() == ["home", "rent", "standup"])
    }
}

/// The example's push gateway.
final class SentNotifications: @unchecked Sendable {
    // @unchecked: the lock guards both arrays.
    private let lock = NSLock()
    private var notifications: [(DeliveryID, DeliveredNotification)] = []

    func push(_ notification: DeliveredNotification, id: DeliveryID) async throws {
        lock.withLock { notifications.append((id, notification)) }
    }

    var titles: [String] { lock.withLock { notifications.map(\.1.request.content.title) } }
    var ids: [DeliveryID] { lock.withLock { notifications.map(\.0) } }
}
