import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

@Suite("Dispatcher")
struct DispatcherTests {
    static let start = Date(timeIntervalSince1970: 1_767_225_600) // 2026-01-01T00:00:00Z

    static func calendar(_ components: DateComponents, repeats: Bool = true) throws -> NotificationTrigger {
        .calendar(try CalendarTrigger(dateMatching: components, repeats: repeats))
    }

    static func request(_ id: String, _ trigger: NotificationTrigger?, misfire: MisfirePolicy = .fireOnceNow) -> NotificationRequest {
        NotificationRequest(identifier: id, content: NotificationContent(title: id), trigger: trigger, misfirePolicy: misfire)
    }

    /// Oracle: each request's own fire list from its trigger's fire-date sequence,
    /// merged by (time, add order) — no heap, no rescheduling bookkeeping.
    @Test func firesMatchMergedPerTriggerListsForSeededRequests() throws {
        var random = SplitMix64(seed: 2026)
        let zone = try ZoneRules.named("America/New_York")
        let end = Self.start.addingTimeInterval(20 * 86_400)
        var requests: [NotificationRequest] = []
        for index in 0..<300 {
            let trigger: NotificationTrigger
            switch random.next() % 4 {
            case 0: trigger = try Self.calendar(DateComponents(hour: Int(random.next() % 24), minute: Int(random.next() % 4) * 15))
            case 1: trigger = try Self.calendar(DateComponents(minute: Int(random.next() % 60), second: 0), repeats: random.next() % 2 == 0)
            case 2: trigger = .timeInterval(try TimeIntervalTrigger(timeInterval: Double(60 * (1 + random.next() % 3000)), repeats: random.next() % 2 == 0))
            default:
                let source = RecurrenceTriggerSource(rrule: "FREQ=DAILY;BYHOUR=\(random.next() % 24);COUNT=\(1 + random.next() % 30)",
                                                     dtstart: "2026-01-01T00:30:00", tz: "Europe/Berlin")
                trigger = .recurrence(try source.trigger())
            }
            requests.append(Self.request("r\(index)", trigger))
        }
        // Replace a few, remove a few: the oracle sees only the final set, replacements last in add order.
        let dispatcher = Dispatcher(now: Self.start, floatingZone: zone)
        for request in requests { dispatcher.add(request) }
        var final = requests
        for index in stride(from: 0, to: 300, by: 37) {
            let replacement = Self.request("r\(index)", .timeInterval(try TimeIntervalTrigger(timeInterval: 7_200, repeats: true)))
            dispatcher.add(replacement)
            final.removeAll { $0.identifier == "r\(index)" }
            final.append(replacement)
        }
        let removed = (0..<300).filter { $0 % 41 == 5 }.map { "r\($0)" }
        dispatcher.removePending(withIdentifiers: removed)
        final.removeAll { removed.contains($0.identifier) }

        var expected: [(Date, Int, String)] = []
        for (order, request) in final.enumerated() {
            var cursor = Self.start
            while let next = request.trigger!.nextTriggerDate(after: cursor, addedAt: Self.start, in: zone), next <= end {
                expected.append((next, order, request.identifier))
                if !request.trigger!.repeats { break }
                cursor = next
            }
        }
        expected.sort { ($0.0, $0.1) < ($1.0, $1.1) }

        var actual: [(Date, String)] = []
        // Advance in uneven steps: the result must not depend on the step size.
        var clock = Self.start
        while clock < end {
            clock = min(end, clock.addingTimeInterval(Double(1 + random.next() % 200_000)))
            dispatcher.advance(to: clock) { actual.append(($0.date, $0.request.identifier)) }
        }
        #expect(actual.count == expected.count)
        #expect(actual.map(\.0) == expected.map(\.0))
        #expect(actual.map(\.1) == expected.map(\.2))
        #expect(!actual.contains { removed.contains($0.1) })
    }

    /// Requests with the same pattern share one compiled search (and its last
    /// answer); sharing must never cross zones, even a hand-built zone that
    /// borrows a real zone's name. March 2026 holds both the US (8th) and the EU
    /// (29th) spring-forward gaps, which 02:30 falls into.
    @Test func sharedCalendarSearchesGiveEachRequestItsOwnZonesFiresAcrossSpringForward() throws {
        let berlin = try ZoneRules.named("Europe/Berlin"), newYork = try ZoneRules.named("America/New_York")
        let fakeBerlin = ZoneRules(identifier: "Europe/Berlin", initialOffset: 5 * 3_600, transitions: [])
        let zones: [TriggerTimeZone] = [.floating, .fixed(berlin), .fixed(newYork), .fixed(fakeBerlin)]
        let patterns = [DateComponents(hour: 2, minute: 30), DateComponents(minute: 30), DateComponents(hour: 2, minute: 30, weekday: 1)]
        let from = Date(timeIntervalSince1970: 1_772_323_200) // 2026-03-01T00:00:00Z
        let end = from.addingTimeInterval(31 * 86_400)
        let dispatcher = Dispatcher(now: from, floatingZone: berlin)
        var expected: [String: [Date]] = [:]
        for copy in 0..<3 {
            for (z, zone) in zones.enumerated() {
                for (p, pattern) in patterns.enumerated() {
                    let trigger = try CalendarTrigger(dateMatching: pattern, repeats: true, timeZone: zone)
                    let identifier = "z\(z)-p\(p)-\(copy)"
                    dispatcher.add(Self.request(identifier, .calendar(trigger)))
                    expected[identifier] = Array(trigger.fireDates(after: from, in: berlin).prefix { $0 <= end })
                }
            }
        }
        #expect(dispatcher.distinctTriggerCount == zones.count * patterns.count)
        var actual: [String: [Date]] = [:]
        dispatcher.advance(to: end) { actual[$0.request.identifier, default: []].append($0.date) }
        #expect(actual == expected)
        // Spot checks: 02:30 in Berlin does not exist on the 29th (Foundation's next time: 03:00 CEST = 01:00Z);
        // the fake zone (+05:00, no DST) fires at 21:30Z every day.
        #expect(actual["z1-p0-0"]?.contains(Date(timeIntervalSince1970: 1_774_746_000)) == true) // 2026-03-29T01:00:00Z
        #expect(actual["z3-p0-0"]?.first == Date(timeIntervalSince1970: 1_772_314_200 + 86_400)) // 2026-03-01T21:30:00Z
    }

    /// A shared search is re-centred on each constant-offset span its queries
    /// reach (its closed-form answers hold only inside one): over a whole year,
    /// through both changes of Berlin and New York, every request fires exactly
    /// when its own trigger says, for the daily, weekly and monthly shapes.
    @Test func sharedCalendarSearchesFollowTheirTriggersThroughAYearOfTransitions() throws {
        var random = SplitMix64(seed: 77)
        let berlin = try ZoneRules.named("Europe/Berlin"), newYork = try ZoneRules.named("America/New_York")
        let from = Date(timeIntervalSince1970: 1_767_225_600) // 2026-01-01T00:00:00Z
        let end = from.addingTimeInterval(365 * 86_400)
        let dispatcher = Dispatcher(now: from, floatingZone: berlin)
        var expected: [String: [Date]] = [:]
        for index in 0..<60 {
            var components = DateComponents(hour: Int(random.next() % 24), minute: Int(random.next() % 60))
            switch random.next() % 3 {
            case 0: break
            case 1: components.weekday = Int(random.next() % 7) + 1
            default: components.day = Int(random.next() % 28) + 1
            }
            let zone: TriggerTimeZone = [.floating, .fixed(newYork)][index % 2]
            let trigger = try CalendarTrigger(dateMatching: components, repeats: true, timeZone: zone)
            // Two requests per trigger, so that they share one search.
            for copy in 0..<2 {
                dispatcher.add(Self.request("t\(index)-\(copy)", .calendar(trigger)))
                expected["t\(index)-\(copy)"] = Array(trigger.fireDates(after: from, in: berlin).prefix { $0 <= end })
            }
        }
        var actual: [String: [Date]] = [:]
        dispatcher.advance(to: end) { actual[$0.request.identifier, default: []].append($0.date) }
        #expect(actual.values.map(\.count).reduce(0, +) > 10_000)
        #expect(actual == expected)
    }

    /// A restart's bulk load must place every request exactly where one-by-one
    /// adds would: stored fires ahead and missed (each misfire policy), no stored
    /// fire, location requests, a trigger that never fires again, and an
    /// identifier given twice (the later replaces the earlier).
    @Test func bulkRestoreFiresExactlyAsOneByOneAdds() throws {
        var random = SplitMix64(seed: 99)
        let now = Self.start.addingTimeInterval(10 * 86_400)
        var records: [ScheduledRequest] = []
        for index in 0..<400 {
            let trigger: NotificationTrigger?
            switch random.next() % 6 {
            case 0: trigger = try Self.calendar(DateComponents(hour: Int(random.next() % 24), minute: 15))
            case 1: trigger = .timeInterval(try TimeIntervalTrigger(timeInterval: Double(3_600 * (1 + random.next() % 300)),
                                                                    repeats: random.next() % 2 == 0))
            case 2: trigger = try Self.calendar(DateComponents(year: 2026, month: 1, day: 3), repeats: false) // past: never
            case 3: trigger = .location(LocationTrigger(region: try .circle(center: Coordinate(latitude: 46, longitude: 14), radius: 100),
                                                        repeats: true))
            case 4: trigger = nil
            default:
                let source = RecurrenceTriggerSource(rrule: "FREQ=DAILY;BYHOUR=\(random.next() % 24)", dtstart: "2026-01-01T00:30:00",
                                                     tz: "Europe/Berlin")
                trigger = .recurrence(try source.trigger())
            }
            let request = NotificationRequest(identifier: "r\(random.next() % 350)", content: NotificationContent(title: "\(index)"),
                                              trigger: trigger, misfirePolicy: MisfirePolicy.allCases[Int(random.next() % 3)],
                                              added: Self.start)
            let stored: Date? = random.next() % 3 == 0 ? nil : now.addingTimeInterval(Double(Int(random.next() % 400_000) - 200_000))
            records.append(.init(request: request, nextFire: stored))
        }
        let zone = try ZoneRules.named("Europe/Berlin")
        let oneByOne = Dispatcher(now: now, floatingZone: zone), bulk = Dispatcher(now: now, floatingZone: zone)
        for record in records { oneByOne.add(record.request, nextFire: record.nextFire) }
        bulk.add(contentsOf: records)
        #expect(bulk.pendingCount == oneByOne.pendingCount)
        #expect(bulk.pendingRequests == oneByOne.pendingRequests)
        var a: [String] = [], b: [String] = []
        oneByOne.advance(to: now.addingTimeInterval(30 * 86_400)) { a.append("\($0.request.identifier)@\($0.date.timeIntervalSince1970)") }
        bulk.advance(to: now.addingTimeInterval(30 * 86_400)) { b.append("\($0.request.identifier)@\($0.date.timeIntervalSince1970)") }
        #expect(a.count > 1_000)
        #expect(b == a)
    }

    @Test func tiesFireInAddOrder() throws {
        let dispatcher = Dispatcher(now: Self.start)
        for id in ["c", "a", "b"] { dispatcher.add(Self.request(id, try Self.calendar(DateComponents(hour: 9)))) }
        var fired: [String] = []
        dispatcher.advance(to: Self.start.addingTimeInterval(2 * 86_400)) { fired.append($0.request.identifier) }
        #expect(fired == ["c", "a", "b", "c", "a", "b"])
    }

    @Test func oneShotIsDroppedAfterDeliveryAndRepeatingStays() throws {
        let dispatcher = Dispatcher(now: Self.start)
        dispatcher.add(Self.request("once", .timeInterval(try TimeIntervalTrigger(timeInterval: 90, repeats: false))))
        dispatcher.add(Self.request("daily", try Self.calendar(DateComponents(hour: 0, minute: 1))))
        var fires: [Dispatcher.Fire] = []
        dispatcher.advance(to: Self.start.addingTimeInterval(3_600)) { fires.append($0) }
        #expect(fires.map(\.request.identifier) == ["daily", "once"])
        #expect(fires[0].date == Self.start.addingTimeInterval(60))
        #expect(fires[0].nextDate == Self.start.addingTimeInterval(86_400 + 60))
        #expect(fires[1].date == Self.start.addingTimeInterval(90))
        #expect(fires[1].nextDate == nil)
        #expect(dispatcher.pendingRequests.map(\.identifier) == ["daily"])
    }

    /// Quartz's misfire instructions, worked by hand: an hourly trigger whose
    /// stored next fire is 00:00, restarted at 03:30.
    @Test(arguments: [(MisfirePolicy.fireOnceNow, [12_600.0, 14_400]),
                      (.skipToNext, [14_400.0]),
                      (.fireAll, [0.0, 3_600, 7_200, 10_800, 14_400])])
    func missedFiresFollowThePolicy(policy: MisfirePolicy, offsets: [Double]) throws {
        let restart = Self.start.addingTimeInterval(12_600)
        let dispatcher = Dispatcher(now: restart)
        dispatcher.add(Self.request("hourly", try Self.calendar(DateComponents(minute: 0)), misfire: policy), nextFire: Self.start)
        var fired: [Double] = []
        dispatcher.advance(to: Self.start.addingTimeInterval(14_400)) { fired.append($0.date.timeIntervalSince(Self.start)) }
        #expect(fired == offsets)
    }

    @Test func requestWithoutTriggerFiresAtOnce() {
        let dispatcher = Dispatcher(now: Self.start)
        dispatcher.add(Self.request("now", nil))
        #expect(dispatcher.nextFireDate == Self.start)
    }
}
