import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// The interned calendar searches and recurrences follow the pending requests:
/// an entry no request holds is freed and its slot reused, and the fires of the
/// requests that stay do not change.
@Suite("FireScheduleTable")
struct FireScheduleTableTests {
    static let start = DispatcherTests.start

    /// Request `index` of generation `generation`: a one-shot or repeating
    /// calendar pattern, or a recurrence with its own DTSTART, so most triggers are distinct.
    static func request(_ index: Int, generation: Int, using random: inout SplitMix64) throws -> NotificationRequest {
        let trigger: NotificationTrigger
        if random.next() % 2 == 0 {
            trigger = try DispatcherTests.calendar(DateComponents(day: Int(random.next() % 28) + 1, hour: Int(random.next() % 24),
                                                                  minute: Int(random.next() % 60)),
                                                   repeats: random.next() % 3 != 0)
        } else {
            let source = RecurrenceTriggerSource(
                rrule: "FREQ=DAILY;COUNT=\(1 + random.next() % 40)",
                // Generation 2 is added two months on: its recurrences start then.
                dtstart: String(format: "2026-%02d-%02d%@%02d:%02d:00", generation == 2 ? 3 : 1, 3 + Int(random.next() % 20), "T",
                                Int(random.next() % 24), Int(random.next() % 60)),
                tz: "Europe/Berlin")
            trigger = .recurrence(try source.trigger())
        }
        return DispatcherTests.request("g\(generation)-\(index)", trigger)
    }

    /// What the table should hold: one entry per distinct pattern or recurrence among `requests`.
    static func distinct(_ requests: some Sequence<NotificationRequest>) -> Int {
        var patterns = Set<CalendarPattern>(), recurrences = Set<RecurrenceTrigger>()
        for request in requests {
            switch request.trigger {
            case .calendar(let trigger)?: patterns.insert(trigger.pattern)
            case .recurrence(let recurrence)?: recurrences.insert(recurrence)
            default: break
            }
        }
        return patterns.count + recurrences.count
    }

    @Test func entriesFollowThePendingRequestsAndFreedSlotsAreReused() throws {
        var random = SplitMix64(seed: 64)
        let zone = try ZoneRules.named("Europe/Berlin")
        let dispatcher = Dispatcher(now: Self.start, floatingZone: zone)
        let first = try (0..<400).map { try Self.request($0, generation: 0, using: &random) }
        for request in first { dispatcher.add(request) }
        #expect(dispatcher.distinctTriggerCount == Self.distinct(first))
        let peak = dispatcher.table.allocatedCount
        #expect(peak == Self.distinct(first))

        // Remove half by identifier, replace a quarter with new triggers.
        dispatcher.removePending(withIdentifiers: first.indices.filter { $0 % 2 == 1 }.map { first[$0].identifier })
        for index in stride(from: 0, to: 400, by: 4) {
            var replacement = try Self.request(index, generation: 1, using: &random)
            replacement.identifier = first[index].identifier
            dispatcher.add(replacement)
        }
        #expect(dispatcher.distinctTriggerCount == Self.distinct(dispatcher.pendingRequests))

        // Two months on: one-shot calendars and finished recurrences have gone.
        var fired = 0
        dispatcher.advance(to: Self.start.addingTimeInterval(60 * 86_400)) { _ in fired += 1 }
        #expect(fired > 2_000)
        let remaining = dispatcher.pendingRequests
        #expect(remaining.count < 250)
        #expect(dispatcher.distinctTriggerCount == Self.distinct(remaining))

        // New requests reuse the freed slots: the allocation does not grow past its peak.
        let second = try (0..<150).map { try Self.request($0, generation: 2, using: &random) }
        for request in second { dispatcher.add(request) }
        #expect(dispatcher.distinctTriggerCount == Self.distinct(dispatcher.pendingRequests))
        #expect(dispatcher.table.allocatedCount <= peak + 1)

        // The survivors and the newcomers fire exactly as in a dispatcher that never held the others.
        let now = dispatcher.now
        let fresh = Dispatcher(now: now, floatingZone: zone)
        for request in dispatcher.pendingRequests {
            fresh.add(request, nextFire: dispatcher.nextFireDate(ofIdentifier: request.identifier))
        }
        let end = now.addingTimeInterval(45 * 86_400)
        var a: [String] = [], b: [String] = []
        dispatcher.advance(to: end) { a.append("\($0.request.identifier)@\($0.date.timeIntervalSince1970)") }
        fresh.advance(to: end) { b.append("\($0.request.identifier)@\($0.date.timeIntervalSince1970)") }
        #expect(a.count > 1_000)
        #expect(a == b)
        dispatcher.removePending(withIdentifiers: dispatcher.pendingRequests.map(\.identifier))
        #expect(dispatcher.distinctTriggerCount == 0)
    }
}
