import Testing
@testable import TriggerEngine
import TestSupport

/// The steps on days' memo of walks (`WalkMemo`) against the walks it stands
/// for, over seeded runs of days shaped like a search's: mostly forward by a
/// day to two months, now and then back (the missing day's match walks from
/// 1 January) or far ahead, with the week changing now and then.
@Suite("Calendar search: the memo of walks")
struct WalkMemoTests {
    /// 40 runs of 3,000 walks to a week number (1–53, a third of the changes
    /// to 53): the memo's end is the walk's, with the day's fields.
    @Test func walksToAWeekNumberEndWhereTheWalkEnds() {
        var generator = CalendarQueryGenerator(seed: 0x3EE4_3E30)
        var wrong: [String] = [], moved = 0
        Self.runs(&generator, weeks: 1...53, changingTo: { $0.chance(0.3) ? 53 : $0.int(1...53) }) { memo, day, week, _ in
            let cursor = DayCursor(dayNumber: day)
            let expected = CalendarSearch.weekWalk(from: cursor, to: week)
            let walked = memo.walk(toWeekOfYear: week, from: cursor)
            if walked?.dayNumber != expected {
                wrong.append("week \(week) from day \(day): \(String(describing: walked?.dayNumber)) instead of \(String(describing: expected))")
            } else if let walked, !walked.hasTheFields(of: DayCursor(dayNumber: walked.dayNumber)) {
                wrong.append("week \(week) from day \(day): the cursor's fields are not the day's")
            }
            if let expected, expected != day { moved += 1 }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong, first: \(wrong.prefix(5).joined(separator: "\n"))")
        // Both outcomes are exercised: days already in the week, and walks to a later one.
        #expect(moved > 60_000)
        #expect(moved < 119_000)
    }

    /// 40 runs of 3,000 walks to a week of the month (1–6), from walk starts
    /// up to 800 days back (so that the limit falls mid-walk for some): the
    /// memo's end, or nil, is the walk's.
    @Test func walksToAWeekOfTheMonthEndWhereTheWalkEnds() {
        var generator = CalendarQueryGenerator(seed: 0x3EE4_3E31)
        var wrong: [String] = [], gaveUp = 0, moved = 0
        Self.runs(&generator, weeks: 1...6, changingTo: { $0.int(1...6) }) { memo, day, week, generator in
            let walkStart = day - (generator.chance(0.2) ? generator.int(600...800) : generator.int(0...40))
            let cursor = DayCursor(dayNumber: day)
            let expected = CalendarSearch.walk(toWeekOfMonth: week, from: cursor, walkStart: walkStart)
            let walked = memo.walk(toWeekOfMonth: week, from: cursor, walkStart: walkStart)
            if expected == nil { gaveUp += 1 } else if expected?.dayNumber != day { moved += 1 }
            if walked?.dayNumber != expected?.dayNumber {
                wrong.append("week \(week) from day \(day), walk from \(walkStart): \(String(describing: walked?.dayNumber)) "
                             + "instead of \(String(describing: expected?.dayNumber))")
            } else if let walked, let expected, !walked.hasTheFields(of: expected) {
                wrong.append("week \(week) from day \(day): the cursor's fields are not the day's")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong, first: \(wrong.prefix(5).joined(separator: "\n"))")
        #expect(gaveUp > 1_000)
        #expect(moved > 60_000)
    }

    /// 40 runs of 3,000 walks, each run with a memo of its own: `body` gets
    /// the memo, the day (`nextDay`), the week (from `weeks`, and now and then
    /// another from `changingTo`) and the generator.
    static func runs(_ generator: inout CalendarQueryGenerator, weeks: ClosedRange<Int>,
                     changingTo newWeek: (inout CalendarQueryGenerator) -> Int,
                     _ body: (inout WalkMemo, Int, Int, inout CalendarQueryGenerator) -> Void) {
        for _ in 0..<40 {
            var memo = WalkMemo()
            var day = generator.int(-100_000...200_000)
            var week = generator.int(weeks)
            for _ in 0..<3_000 {
                day = nextDay(after: day, &generator)
                if generator.chance(0.05) { week = newWeek(&generator) }
                body(&memo, day, week, &generator)
            }
        }
    }

    /// The next day of a run: forward by a day to two months mostly, back to
    /// the start of the year now and then, far ahead rarely.
    static func nextDay(after day: Int, _ generator: inout CalendarQueryGenerator) -> Int {
        if generator.chance(0.1) { return day - generator.int(0...365) }
        if generator.chance(0.02) { return day + generator.int(400...4_000) }
        return day + (generator.chance(0.5) ? generator.int(1...7) : generator.int(8...62))
    }
}
