import Foundation
import Testing
@_spi(Internals) @testable import TriggerEngine

/// Records what the center routes to it.
final class RecordingDelegate: UserNotificationCenterDelegate, @unchecked Sendable {
    // @unchecked: the lock guards both arrays; the center calls from its actor.
    private let lock = NSLock()
    private var _responses: [NotificationResponse] = []
    let presentation: PresentationOptions

    init(presentation: PresentationOptions) { self.presentation = presentation }

    var responses: [NotificationResponse] { lock.withLock { _responses } }

    func willPresent(_ notification: DeliveredNotification) async -> PresentationOptions { presentation }
    func didReceive(_ response: NotificationResponse) async { lock.withLock { _responses.append(response) } }
}

@Suite("UserNotificationCenter")
struct UserNotificationCenterTests {
    static let start = Date(timeIntervalSince1970: 1_767_225_600)

    static func inMinutes(_ id: String, _ minutes: Double, category: String = "") throws -> NotificationRequest {
        NotificationRequest(identifier: id, content: NotificationContent(title: id, categoryIdentifier: category),
                            trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: minutes * 60, repeats: false)))
    }

    @Test func deniedRecipientGetsNothingAndIsCounted() async throws {
        let center = try UserNotificationCenter(now: Self.start)
        await center.setAuthorizationAnswer { recipient, _ in recipient == "bob" ? .denied : .authorized }
        #expect(try await center.requestAuthorization(options: [.alert], for: "ann"))
        #expect(try await !center.requestAuthorization(options: [.alert], for: "bob"))
        try await center.add(Self.inMinutes("a", 1), for: "ann")
        try await center.add(Self.inMinutes("b", 2), for: "bob")
        let deliveries = try await center.advance(to: Self.start.addingTimeInterval(600))
        #expect(deliveries.map(\.notification.request.identifier) == ["a"])
        #expect(await center.deniedCount == 1)
        #expect(await center.pendingNotificationRequests().isEmpty)
    }

    @Test func provisionalIsQuietAndForegroundAsksTheDelegate() async throws {
        let center = try UserNotificationCenter(now: Self.start)
        try await center.requestAuthorization(options: [.provisional], for: "quiet")
        try await center.requestAuthorization(options: [.alert], for: "front")
        try await center.requestAuthorization(options: [.alert], for: "back")
        #expect(await center.notificationSettings(for: "quiet").authorizationStatus == .provisional)
        let delegate = RecordingDelegate(presentation: [.banner, .sound])
        await center.setDelegate(delegate)
        await center.setForeground(true, for: "front")
        try await center.add(Self.inMinutes("q", 1), for: "quiet")
        try await center.add(Self.inMinutes("f", 2), for: "front")
        try await center.add(Self.inMinutes("b", 3), for: "back")
        let presentations = try await center.advance(to: Self.start.addingTimeInterval(600)).map(\.presentation)
        #expect(presentations == [[.list], [.banner, .sound], [.banner, .list, .sound, .badge]])
    }

    @Test func responsesAreRoutedAndDismissOnlyWithCustomDismissAction() async throws {
        let center = try UserNotificationCenter(now: Self.start)
        try await center.requestAuthorization(options: [.alert])
        let reply = NotificationAction(identifier: "REPLY", title: "Reply",
                                       textInput: .init(buttonTitle: "Send", placeholder: "…"))
        try await center.setNotificationCategories([
            NotificationCategory(identifier: "CHAT", actions: [reply], options: [.customDismissAction]),
            NotificationCategory(identifier: "PLAIN", actions: [NotificationAction(identifier: "OK", title: "OK")]),
        ])
        let delegate = RecordingDelegate(presentation: [])
        await center.setDelegate(delegate)
        try await center.add(Self.inMinutes("chat", 1, category: "CHAT"))
        try await center.add(Self.inMinutes("plain", 1, category: "PLAIN"))
        _ = try await center.advance(to: Self.start.addingTimeInterval(120))
        let at = Self.start.addingTimeInterval(180)
        try await center.respond(toIdentifier: "chat", action: "REPLY", text: "on my way", at: at)
        try await center.respond(toIdentifier: "chat", action: NotificationResponse.dismissActionIdentifier, at: at)
        #expect(try await center.respond(toIdentifier: "plain", action: NotificationResponse.dismissActionIdentifier, at: at) == nil)
        try await center.respond(toIdentifier: "plain", action: NotificationResponse.defaultActionIdentifier, at: at)
        // Each refusal is a case an embedder can switch on.
        let notInCategory = await #expect(throws: CenterError.self) {
            try await center.respond(toIdentifier: "plain", action: "REPLY", at: at)
        }
        guard case .actionNotInCategory("plain", "REPLY", "PLAIN", ["OK"])? = notInCategory else {
            Issue.record("expected actionNotInCategory, got \(String(describing: notInCategory))")
            return
        }
        let noText = await #expect(throws: CenterError.self) {
            try await center.respond(toIdentifier: "plain", action: "OK", text: "hi", at: at)
        }
        guard case .actionTakesNoText("plain", "OK")? = noText else {
            Issue.record("expected actionTakesNoText, got \(String(describing: noText))")
            return
        }
        // The short names are the CLI's; the library takes identifiers only.
        let shortName = await #expect(throws: CenterError.self) {
            try await center.respond(toIdentifier: "plain", action: "default", at: at)
        }
        guard case .actionNotInCategory(_, "default", _, _)? = shortName else {
            Issue.record("expected actionNotInCategory, got \(String(describing: shortName))")
            return
        }
        let never = await #expect(throws: CenterError.self) {
            try await center.respond(toIdentifier: "never", action: NotificationResponse.defaultActionIdentifier, at: at)
        }
        guard case .notDelivered("never")? = never else {
            Issue.record("expected notDelivered, got \(String(describing: never))")
            return
        }
        #expect(delegate.responses.map(\.actionIdentifier) == ["REPLY", NotificationResponse.dismissActionIdentifier,
                                                                NotificationResponse.defaultActionIdentifier])
        #expect(delegate.responses.first?.userText == "on my way")
        #expect(await center.droppedDismissCount == 1)
    }

    @Test func pushIsDeliveredAtOnceAfterEarlierClockFires() async throws {
        let center = try UserNotificationCenter(now: Self.start)
        try await center.requestAuthorization(options: [.alert])
        try await center.add(Self.inMinutes("early", 5))
        try await center.add(Self.inMinutes("late", 15))
        let payload = Data(#"{"aps":{"alert":{"title":"Hi"}}}"#.utf8)
        let deliveries = try await center.receivePush(payload, identifier: "p", at: Self.start.addingTimeInterval(600))
        #expect(deliveries.map(\.notification.request.identifier) == ["early", "p"])
        #expect(deliveries.map(\.triggerKind) == [.timeInterval, .push])
        #expect(await center.deliveredNotifications().map(\.request.identifier) == ["early", "p"])
    }

    @Test func locationRequestFiresOnEntryFromFixes() async throws {
        let center = try UserNotificationCenter(now: Self.start)
        try await center.requestAuthorization(options: [.alert])
        let region = try Region.circle(center: Coordinate(latitude: 45.0, longitude: 14.0), radius: 100)
        try await center.add(NotificationRequest(identifier: "geo", content: NotificationContent(title: "in"),
                                                 trigger: .location(LocationTrigger(region: region, notifyOnEntry: true,
                                                                                    notifyOnExit: false, repeats: false))))
        // 0.002° of latitude ≈ 222 m: outside, then at the centre, then outside, then inside again.
        var fired: [Date] = []
        for (minute, lat) in [(1.0, 45.002), (2, 45.0), (3, 45.002), (4, 45.0)] {
            let fix = LocationFix(device: "d", time: Self.start.addingTimeInterval(minute * 60),
                                  coordinate: Coordinate(latitude: lat, longitude: 14.0))
            fired += try await center.ingest(fix).map(\.notification.date)
        }
        #expect(fired == [Self.start.addingTimeInterval(120)])
        #expect(await center.pendingNotificationRequests().isEmpty)
    }

    /// Adding another location request rebuilds the monitor; the device inside
    /// "lake" must stay inside, so leaving it afterwards still fires the exit.
    @Test func deviceInsideARegionStaysInsideWhenLocationRequestsChange() async throws {
        let center = try UserNotificationCenter(now: Self.start)
        try await center.requestAuthorization(options: [.alert])
        let lake = try Region.circle(center: Coordinate(latitude: 45.0, longitude: 14.0), radius: 100)
        try await center.add(NotificationRequest(identifier: "lake", content: NotificationContent(title: "lake"),
                                                 trigger: .location(LocationTrigger(region: lake, repeats: true))))
        func fix(_ minute: Double, _ lat: Double) -> LocationFix {
            LocationFix(device: "d", time: Self.start.addingTimeInterval(minute * 60), coordinate: Coordinate(latitude: lat, longitude: 14.0))
        }
        var fired: [(String, Date)] = []
        for (minute, lat) in [(1.0, 45.002), (2, 45.0)] {
            fired += try await center.ingest(fix(minute, lat)).map { ($0.notification.request.identifier, $0.notification.date) }
        }
        let far = try Region.circle(center: Coordinate(latitude: 46.0, longitude: 15.0), radius: 100)
        try await center.add(NotificationRequest(identifier: "far", content: NotificationContent(title: "far"),
                                                 trigger: .location(LocationTrigger(region: far, repeats: true))))
        for (minute, lat) in [(3.0, 45.0005), (4, 45.002)] {
            fired += try await center.ingest(fix(minute, lat)).map { ($0.notification.request.identifier, $0.notification.date) }
        }
        // Entry at minute 2; still inside at 3 (no second entry); exit at 4.
        #expect(fired.map(\.0) == ["lake", "lake"])
        #expect(fired.map(\.1) == [Self.start.addingTimeInterval(120), Self.start.addingTimeInterval(240)])
    }
}
