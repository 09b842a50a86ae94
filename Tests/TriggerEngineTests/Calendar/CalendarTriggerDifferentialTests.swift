import Foundation
import Testing
@testable import TriggerEngine

@Suite("CalendarTrigger: differential against Foundation's Calendar.nextDate")
struct CalendarTriggerDifferentialTests {
    /// 20,000 seeded random component sets × random `after` × 13 zones (DST in
    /// both hemispheres, Kolkata, Kathmandu, Lord Howe, Apia, Chatham, St John's):
    /// the first two fire dates agree with Foundation's, nil included.
    @Test(arguments: 0..<8)
    func randomComponentSetsAgreeWithFoundation(shard: Int) throws {
        var generator = CalendarQueryGenerator(seed: 0xCA1E_0000 + UInt64(shard))
        var mismatches: [String] = []
        for _ in 0..<2_500 {
            let zone = CalendarQueryGenerator.zones[generator.int(0...CalendarQueryGenerator.zones.count - 1)]
            let calendar = CalendarOracle.calendar(zone)
            let after = generator.after(in: zone)
            let components = generator.components(near: calendar.component(.year, from: after))
            let trigger = try CalendarTrigger(dateMatching: components, repeats: true, timeZone: .fixed(try ZoneRules.named(zone)))
            var ours = trigger.fireDates(after: after).makeIterator()
            var cursor = after
            for fire in 0..<2 {
                let expected = CalendarOracle.next(components, after: cursor, in: calendar)
                let actual = ours.next()
                if expected != actual {
                    mismatches.append("\(zone) \(components) after \(cursor.timeIntervalSince1970) fire \(fire): "
                                      + "Foundation \(expected.map { "\($0.timeIntervalSince1970)" } ?? "nil") "
                                      + "ours \(actual.map { "\($0.timeIntervalSince1970)" } ?? "nil")")
                    break
                }
                guard let expected else { break }
                cursor = expected
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(15).joined(separator: "\n"))")
    }
}
