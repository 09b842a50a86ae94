import Foundation
import Testing
@_spi(Internals) @testable import TriggerEngine

/// Issue 12: "a request the center accepts can make the store unopenable".
/// Every trigger form the center accepts must come back equal from the store
/// and from request JSON, and fire the same after a restart.
@Suite("Center store: what is accepted reopens")
struct CenterStoreRoundTripTests {
    static let start = Date(timeIntervalSince1970: 1_767_225_600) // 2026-01-01T00:00:00Z

    /// One trigger of every form, in fixed, fixed-offset, hand-built and floating zones.
    static func everyForm() throws -> [NotificationTrigger?] {
        let berlin = try ZoneRules.named("Europe/Berlin")
        // A VTIMEZONE-like hand-built zone: +01:00, +02:00 from 2026-03-29T01:00Z, back on 2026-10-25T01:00Z.
        let handBuilt = ZoneRules(identifier: "Custom/Hand", initialOffset: 3_600,
                                  transitions: [(1_774_746_000, 7_200), (1_792_890_000, 3_600)])
        let kolkataLike = ZoneRules.fixed(offset: 19_800)
        let westOfUTC = ZoneRules.fixed(offset: -16_200)
        let square = try Region(geoJSON: #"{"type":"Polygon","coordinates":[[[14,45],[14.01,45],[14.01,45.01],[14,45.01],[14,45]]]}"#)
        var triggers: [NotificationTrigger?] = [nil, .push]
        for zone: TriggerTimeZone in [.floating, .fixed(.utc), .fixed(berlin), .fixed(kolkataLike), .fixed(westOfUTC),
                                      .fixed(handBuilt)] {
            triggers.append(.calendar(try CalendarTrigger(dateMatching: DateComponents(hour: 7, minute: 30), repeats: true,
                                                          timeZone: zone)))
            triggers.append(.recurrence(try RecurrenceTrigger(
                rule: try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10"),
                start: LocalDateTime.valid(year: 2026, month: 1, day: 5, hour: 9)!, timeZone: zone,
                recurrenceDates: [LocalDateTime.valid(year: 2026, month: 1, day: 10, hour: 12)!],
                exceptionDates: [LocalDateTime.valid(year: 2026, month: 1, day: 7, hour: 9)!])))
        }
        triggers.append(.recurrence(try RecurrenceTrigger(rule: nil, start: LocalDateTime.valid(year: 2026, month: 2, day: 1)!,
                                                          timeZone: .floating)))
        triggers.append(.timeInterval(try TimeIntervalTrigger(timeInterval: 90, repeats: false)))
        triggers.append(.timeInterval(try TimeIntervalTrigger(timeInterval: 3_600.5, repeats: true)))
        triggers.append(.location(LocationTrigger(region: try Region.circle(center: Coordinate(latitude: 45, longitude: 14),
                                                                            radius: 150), notifyOnExit: false, repeats: true)))
        triggers.append(.location(LocationTrigger(region: square, repeats: false,
                                                  monitorOptions: MonitorOptions(initial: .enter, hysteresis: 25, dwell: 300))))
        return triggers
    }

    @Test func everyTriggerFormRoundTripsThroughTheStoreAndJSON() async throws {
        let path = NotificationStoreTests.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let triggers = try Self.everyForm()
        let requests = triggers.enumerated().map { index, trigger in
            NotificationRequest(identifier: "r\(index)", content: NotificationContent(title: "t\(index)"), trigger: trigger)
        }
        // Through JSON (the CLI's and the delivered table's form).
        for request in requests {
            let back = try JSONDecoder().decode(NotificationRequest.self, from: try JSONEncoder().encode(request))
            #expect(back.trigger == request.trigger, "\(request.identifier) through JSON")
        }
        // Through the store: a center accepts them all, a restarted one has them all, equal.
        var fires: [String] = []
        do {
            let center = try UserNotificationCenter(now: Self.start, store: try NotificationStore(path: path))
            try await center.requestAuthorization(options: [.alert])
            for request in requests { try await center.add(request) }
        }
        let reopened = try UserNotificationCenter(now: Self.start, store: try NotificationStore(path: path))
        #expect(reopened.setAsideRecords.isEmpty)
        let back = await reopened.pendingNotificationRequests()
        #expect(back.map(\.identifier) == requests.map(\.identifier))
        for request in requests {
            let stored = back.first { $0.identifier == request.identifier }
            #expect(stored?.trigger == request.trigger, "\(request.identifier): \(String(describing: request.trigger?.kind))")
        }
        // And they fire as a center that never restarted does.
        let fresh = try UserNotificationCenter(now: Self.start)
        try await fresh.requestAuthorization(options: [.alert])
        for request in requests {
            var copy = request
            copy.added = Self.start
            try await fresh.add(copy)
        }
        let end = Self.start.addingTimeInterval(20 * 86_400)
        fires = try await reopened.advance(to: end).map { "\($0.notification.request.identifier)@\($0.due.timeIntervalSince1970)" }
        let expected = try await fresh.advance(to: end).map { "\($0.notification.request.identifier)@\($0.due.timeIntervalSince1970)" }
        #expect(fires == expected)
        #expect(fires.count > 100)
    }

    @Test func fixedOffsetAndHandBuiltZonesAreWrittenSoTheyReadBack() throws {
        let handBuilt = ZoneRules(identifier: "Custom/Hand", initialOffset: 3_600, transitions: [(1_774_746_000, 7_200)])
        for zone in [ZoneRules.utc, .fixed(offset: 3_600), .fixed(offset: -16_200), .fixed(offset: 45_900), handBuilt,
                     try ZoneRules.named("Asia/Kathmandu")] {
            let text = zone.encodedText
            #expect(try ZoneRules.decoded(text: text) == zone, "\(text)")
        }
        #expect(ZoneRules.fixed(offset: 3_600).encodedText == "UTC+3600s")
        #expect(handBuilt.encodedText.hasPrefix("{"))
        #expect(throws: DataError.self) { try ZoneRules.decoded(text: "UTC+99999s") }
        #expect(throws: DataError.self) { try ZoneRules.decoded(text: "Mars/Olympus") }
        #expect(throws: DataError.self) { try ZoneRules.decoded(text: #"{"identifier":"x","initialOffset":0,"transitions":[[1]]}"#) }
    }
}
