import Foundation
import Testing
@testable import TriggerEngine
import TestSupport

/// `DayCursor`'s jumps against walks day by day (`step()`), with every field
/// of where they land held to `CivilDate`'s closed forms.
@Suite("Calendar: the day cursor's jumps")
struct DayCursorTests {
    /// A cursor's fields, in `CivilYearTests.closedForm`'s order after the day number.
    static func fields(_ cursor: DayCursor) -> [Int] {
        [cursor.dayNumber, cursor.year, cursor.month, cursor.day, cursor.weekday, cursor.monthLength]
    }

    /// `advance(toWeekday:ordinal:within:of:)` as its contract reads, day by
    /// day: the first later day with both, unless the 1st of a month passed to
    /// on the way lies more than `limit` days after `origin` (false, there).
    static func walked(from start: Int, weekday: Int, ordinal: Int, limit: Int, origin: Int) -> (found: Bool, cursor: DayCursor) {
        var cursor = DayCursor(dayNumber: start)
        while true {
            cursor.step()
            if cursor.day == 1 && cursor.dayNumber - origin > limit { return (false, cursor) }
            if cursor.weekday == weekday && cursor.weekdayOrdinal == ordinal { return (true, cursor) }
        }
    }

    /// 300,000 seeded starts from year −3000 to 11,000 (century years that
    /// are leap years and ones that are not), every weekday and ordinal, and
    /// limits from none to the searches' 800 days, so that both ends, the
    /// day found and the limit reached, are met often.
    @Test func theJumpToAWeekdayOfAnOrdinalLandsWhereTheWalkDoes() {
        var mismatches: [String] = []
        var generator = SplitMix64(seed: 0xDA_7C0)
        let low = CivilDate.days(year: -3000, month: 1, day: 1), high = CivilDate.days(year: 11_000, month: 1, day: 1)
        var outcomes = (found: 0, limited: 0)
        for _ in 0..<300_000 {
            let start = Int.random(in: low...high, using: &generator)
            let weekday = Int.random(in: 1...7, using: &generator), ordinal = Int.random(in: 1...5, using: &generator)
            let origin = start - Int.random(in: 0...40, using: &generator)
            let limit = Bool.random(using: &generator) ? Int.random(in: 0...120, using: &generator) : 800
            let expected = Self.walked(from: start, weekday: weekday, ordinal: ordinal, limit: limit, origin: origin)
            var jumped = DayCursor(dayNumber: start)
            let found = jumped.advance(toWeekday: weekday, ordinal: ordinal, within: limit, of: origin)
            if expected.found { outcomes.found += 1 } else { outcomes.limited += 1 }
            if found != expected.found || Self.fields(jumped) != Self.fields(expected.cursor)
                || Self.fields(jumped) != [jumped.dayNumber] + CivilYearTests.closedForm(jumped.dayNumber) {
                mismatches.append("from \(start) to weekday \(weekday) ordinal \(ordinal) within \(limit) of \(origin): "
                    + "\(found) \(Self.fields(jumped)) instead of \(expected.found) \(Self.fields(expected.cursor))")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count): \(mismatches.prefix(10).joined(separator: "\n"))")
        // Both ends were exercised, not one of them only.
        #expect(outcomes.found > 100_000 && outcomes.limited > 10_000, "\(outcomes)")
    }
}
