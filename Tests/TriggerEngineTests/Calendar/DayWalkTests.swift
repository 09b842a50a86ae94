import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// The day-number shortcuts (`CalendarSearch+DayWalk`, `DayCursor`) against
/// the loops they replace, and the searches they speed up against Foundation.
///
/// Counts in the tests' comments are of all their shards: by default each runs the first
/// half of them (`TestShards`; `TRIGGERENGINE_ALL_SHARDS=1` runs all).
@Suite("Calendar search: the day walks")
struct DayWalkTests {
    static let zones = WeekWalkTests.zones
    static let ordinaryZones: Set = ["Europe/Berlin", "Australia/Sydney", "America/New_York", "Australia/Lord_Howe"]

    /// A search in `zone` whose calendar is centred on `after`, as a query's is.
    static func search(_ zone: String, near after: Double) throws -> CalendarSearch {
        CalendarSearch(calendar: ZoneCalendar(rules: try ZoneRules.named(zone), near: after), pattern: CalendarPattern())
    }

    /// The cursor's fields after each step equal the fields of the day number,
    /// over 2,000 seeded runs of up to 400 days and month steps.
    @Test func theCursorKeepsEveryFieldOfTheDay() {
        var generator = CalendarQueryGenerator(seed: 0xDA7_C0)
        var wrong: [String] = []
        for _ in 0..<2_000 {
            var cursor = DayCursor(dayNumber: generator.int(-200_000...200_000))
            for _ in 0..<generator.int(1...400) {
                if generator.chance(0.1) { cursor.stepToNextMonth() } else { cursor.step() }
                let fields = ZoneCalendar.fields(localSeconds: cursor.dayNumber * 86_400)
                let expected = [fields.year, fields.month, fields.day, fields.weekday, fields.weekdayOrdinal, fields.weekOfMonth]
                let got = [cursor.year, cursor.month, cursor.day, cursor.weekday, cursor.weekdayOrdinal, cursor.weekOfMonth]
                let weeks = ZoneCalendar(rules: .utc).weeksInMonth(containing: Double(cursor.dayNumber * 86_400))
                if expected != got || weeks != cursor.weeksInMonth {
                    wrong.append("day \(cursor.dayNumber): \(got) + \(cursor.weeksInMonth) weeks, expected \(expected) + \(weeks)")
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong, first: \(wrong.prefix(5).joined(separator: "\n"))")
    }

    /// The two zone-table answers the shortcuts lean on, against the list of
    /// transitions itself over 4,000 seeded windows of a day to forty years
    /// (some reaching past the table's end in 2500): whether every transition
    /// in a window leaves midnight alone, and the offset over a window when
    /// no transition lies within three days of it.
    @Test func theTableAnswersAgreeWithTheTransitionList() throws {
        var generator = CalendarQueryGenerator(seed: 0xDA7_7AB1)
        var wrong: [String] = []
        for round in 0..<4_000 {
            let zone = Self.zones[generator.int(0...Self.zones.count - 1)]
            let rules = try ZoneRules.named(zone)
            let from = round % 10 == 0 ? generator.int(16_000_000_000...16_800_000_000) : Int(generator.after(in: zone).timeIntervalSince1970)
            let through = from + generator.int(86_400...40 * 366 * 86_400)
            let listed = rules.transitions(between: from, and: through)
            let calendar = ZoneCalendar(rules: rules, near: generator.chance(0.5) ? Double(from) : nil)
            let clear = calendar.transitionsLeaveMidnightAlone(from: from, through: through, checkingAtMost: 10_000)
            if clear != listed.allSatisfy(\.leavesMidnightAlone) {
                wrong.append("\(zone) \(from)...\(through): clear \(clear), \(listed.count) listed")
            }
            let last = from + generator.int(0...30 * 86_400)
            let margin = ZoneCalendar.quietMargin
            let steady = calendar.steadyOffset(from: from, to: last)
            let expected = rules.transitions(between: from - margin, and: last + margin).isEmpty ? rules.offset(atUTC: from) : nil
            // Past the table's end the answer may be nil where a fold hides
            // nothing; where it is given it must be right.
            if steady != expected && !(steady == nil && last + margin >= ZoneRules.tableEnd) {
                wrong.append("\(zone) \(from)...\(last): steady offset \(String(describing: steady)), expected \(String(describing: expected))")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong, first: \(wrong.prefix(5).joined(separator: "\n"))")
    }

    /// Periods of a day to a year, by day numbers from steady ends, against
    /// the field arithmetic, on 8,000 seeded instants (where the shortcut
    /// answers); a year or a week year across a daylight-saving change,
    /// whose ends lie in different spans, is answered too.
    @Test func steadyPeriodsEqualThePeriodsByFields() throws {
        var generator = CalendarQueryGenerator(seed: 0xDA7_1E7)
        let units: [CalendarUnit] = [.day, .weekday, .weekdayOrdinal, .weekOfMonth, .weekOfYear, .month, .year, .yearForWeekOfYear]
        var answered = 0, acrossATransition = 0
        var wrong: [String] = []
        for _ in 0..<8_000 {
            let zone = Self.zones[generator.int(0...Self.zones.count - 1)]
            let t = generator.after(in: zone).timeIntervalSince1970
            let rules = try ZoneRules.named(zone)
            let calendar = ZoneCalendar(rules: rules, near: generator.chance(0.5) ? t : nil)
            let unit = units[generator.int(0...units.count - 1)]
            guard let steady = calendar.steadyInterval(of: unit, containing: t) else { continue }
            answered += 1
            if !rules.transitions(between: Int(steady.start), and: Int(steady.end)).isEmpty { acrossATransition += 1 }
            let fields = calendar.fieldInterval(of: unit, containing: t)
            if steady != fields { wrong.append("\(zone) \(unit) at \(t): \(steady), by fields \(fields)") }
        }
        #expect(answered >= 4_000)
        #expect(acrossATransition >= 500)
        #expect(wrong.isEmpty, "\(wrong.count) of \(answered) wrong, first: \(wrong.prefix(5).joined(separator: "\n"))")
    }

    /// 8,000 seeded starts (a third within a day of a transition) in nine
    /// zones, four with transitions at midnight and Apia: each shortcut, where
    /// it answers, lands where its loop lands (or, where the loop gives up,
    /// the shortcut does not answer); in the ordinary zones they answer nearly always.
    @Test func eachShortcutLandsWhereItsLoopLands() throws {
        var generator = CalendarQueryGenerator(seed: 0xDA7_5701)
        var answered = 0, ordinary = 0, ordinaryAnswered = 0
        var mismatches: [String] = []
        for round in 0..<8_000 {
            let zone = Self.zones[generator.int(0...Self.zones.count - 1)]
            let after = generator.after(in: zone).timeIntervalSince1970
            let search = try Self.search(zone, near: after)
            let shortcut: Double?, loop: Double?, what: String
            switch round % 5 {
            case 0:
                let weekday = generator.int(1...7)
                what = "advance by day to weekday \(weekday)"
                shortcut = search.clearAdvance(from: after, by: .day, until: .weekday, is: weekday)
                loop = try? search.walk(from: after, by: .day, until: .weekday, is: weekday)
            case 1:
                let ordinal = generator.int(1...5)
                what = "advance by day to ordinal \(ordinal)"
                shortcut = search.clearAdvance(from: after, by: .day, until: .weekdayOrdinal, is: ordinal)
                loop = try? search.walk(from: after, by: .day, until: .weekdayOrdinal, is: ordinal)
            case 2:
                let month = generator.int(1...12)
                what = "advance by month to month \(month)"
                shortcut = search.clearAdvance(from: after, by: .month, until: .month, is: month)
                loop = try? search.walk(from: after, by: .month, until: .month, is: month)
            case 3:
                let day = generator.int(1...31)
                what = "match day \(day)"
                shortcut = search.clearMatchDay(from: after, day)
                loop = try? search.matchDayLoop(from: after, day)
            default:
                let week = generator.int(1...6)
                what = "match week of month \(week)"
                shortcut = search.clearWeekOfMonth(from: after, week)
                loop = try? search.weekOfMonthLoop(from: after, week)
            }
            if Self.ordinaryZones.contains(zone) { ordinary += 1 }
            guard let shortcut else { continue }
            answered += 1
            if Self.ordinaryZones.contains(zone) { ordinaryAnswered += 1 }
            if loop != shortcut {
                mismatches.append("\(zone) after \(after), \(what): shortcut \(shortcut), loop \(String(describing: loop))")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(answered): \(mismatches.prefix(10).joined(separator: "\n"))")
        #expect(ordinaryAnswered * 100 >= ordinary * 95, "the shortcuts answered \(ordinaryAnswered) of \(ordinary) in ordinary zones")
    }

    /// The weekday-with-ordinal walk against the same walk on `interval(of: .day)`.
    @Test func theWeekdayWithOrdinalWalkLandsWhereTheLoopLands() throws {
        var generator = CalendarQueryGenerator(seed: 0xDA7_0D1)
        var answered = 0
        var mismatches: [String] = []
        for _ in 0..<3_000 {
            let zone = Self.zones[generator.int(0...Self.zones.count - 1)]
            let after = generator.after(in: zone).timeIntervalSince1970
            let search = try Self.search(zone, near: after)
            let weekday = generator.int(1...7), ordinal = generator.int(1...5)
            guard let shortcut = search.clearWeekdayWithOrdinal(after: after, weekday: weekday, ordinal: ordinal) else { continue }
            answered += 1
            var t = after
            for _ in 0..<800 {
                t = search.calendar.interval(of: .day, containing: t).end
                if search.calendar.value(of: .weekday, at: t) == weekday && search.calendar.value(of: .weekdayOrdinal, at: t) == ordinal {
                    break
                }
            }
            if t != shortcut { mismatches.append("\(zone) after \(after), weekday \(weekday) #\(ordinal): shortcut \(shortcut), loop \(t)") }
        }
        #expect(answered >= 2_000)
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(answered): \(mismatches.prefix(10).joined(separator: "\n"))")
    }

    /// The quiet walks by seconds and by minutes (`quietAdvance`, computed
    /// landings) against the loop they replace (`walk`) on 6,000 seeded starts
    /// in the day walks' zones and New York (a third within a day of a
    /// transition, a tenth with a fraction of a second), and in Monrovia
    /// before 1972, whose offset of −0:44:30 starts Foundation's UTC minutes
    /// half-way through a wall-clock minute. Where the shortcut answers it
    /// lands where the loop lands; out of the transitions' reach it answers.
    @Test func theQuietWalksLandWhereTheLoopLands() throws {
        var generator = CalendarQueryGenerator(seed: 0x9E1_A7)
        let zones = Self.zones + ["America/New_York"]
        var answered = 0, monrovia = 0
        var mismatches: [String] = []
        for round in 0..<6_000 {
            let zone: String, after: Double
            if round % 6 == 0 {
                zone = "Africa/Monrovia"
                after = Double(generator.int(-400_000_000...60_000_000)) + (generator.chance(0.3) ? 0.25 : 0)
            } else {
                zone = zones[generator.int(0...zones.count - 1)]
                after = generator.after(in: zone).timeIntervalSince1970
            }
            let search = try Self.search(zone, near: after)
            let period: CalendarUnit = round % 2 == 0 ? .second : .minute
            let value = generator.int(0...59)
            guard let shortcut = search.quietAdvance(from: after, by: period, until: period, is: value) else { continue }
            answered += 1
            if zone == "Africa/Monrovia" { monrovia += 1 }
            let loop = try? search.walk(from: after, by: period, until: period, is: value)
            if loop != shortcut {
                mismatches.append("\(zone) after \(after), \(period) to \(value): shortcut \(shortcut), loop \(String(describing: loop))")
            }
        }
        #expect(answered >= 4_000)
        #expect(monrovia >= 900)
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(answered): \(mismatches.prefix(10).joined(separator: "\n"))")
        // A value no second or minute shows: the shortcut leaves it to the loop.
        let search = try Self.search("Europe/Berlin", near: 1_800_000_000)
        #expect(search.quietAdvance(from: 1_800_000_000, by: .minute, until: .minute, is: 60) == nil)
        #expect(search.quietAdvance(from: 1_800_000_000, by: .hour, until: .hour, is: 3) == nil)
    }

    /// The same walks started within an hour and a half of a transition
    /// (4,000 seeded starts, 1990–2060, a quarter with a fraction of a
    /// second, the calendar centred on the start or on a year before it):
    /// the shortcut answers up to the transition's instant, not only three
    /// days from it, and declines a walk that would cross it; where it
    /// answers it lands where the loop lands.
    @Test func theQuietWalksLandWhereTheLoopLandsUpToATransition() throws {
        var generator = CalendarQueryGenerator(seed: 0x7_2A45)
        var answered = 0, answeredBefore = 0, declined = 0
        var mismatches: [String] = []
        for round in 0..<4_000 {
            let zone = Self.zones[generator.int(0...Self.zones.count - 1)]
            let rules = try ZoneRules.named(zone)
            guard let transition = rules.firstTransition(after: generator.int(631_152_000...2_840_000_000)) else { continue }
            let after = Double(transition.at + generator.int(-5_400...5_400)) + (generator.chance(0.25) ? 0.5 : 0)
            let centre = generator.chance(0.5) ? after : after - 365 * 86_400
            let search = CalendarSearch(calendar: ZoneCalendar(rules: rules, near: centre), pattern: CalendarPattern())
            let period: CalendarUnit = round % 2 == 0 ? .second : .minute
            let value = generator.int(0...59)
            let loop = try? search.walk(from: after, by: period, until: period, is: value)
            guard let shortcut = search.quietAdvance(from: after, by: period, until: period, is: value) else {
                // Declined: the walk's reach crosses the transition.
                if let loop, after >= Double(transition.at) || loop < Double(transition.at) - 60 {
                    mismatches.append("\(zone) after \(after), \(period) to \(value): declined, the loop stays in one span (\(loop))")
                }
                declined += 1
                continue
            }
            answered += 1
            if after < Double(transition.at) { answeredBefore += 1 }
            if loop != shortcut {
                mismatches.append("\(zone) after \(after), \(period) to \(value): shortcut \(shortcut), loop \(String(describing: loop))")
            }
        }
        #expect(answered >= 3_000)
        #expect(answeredBefore >= 1_200)
        #expect(declined >= 10)
        let mismatchCount = mismatches.count
        #expect(mismatchCount == 0, "of \(answered + declined): \(mismatches.prefix(10).joined(separator: "\n"))")
    }

    /// Sets built on the walks (weekday ordinals, weeks of the month, days,
    /// with a rare or impossible match half of the time) in the same zones:
    /// the first two fire dates agree with Foundation's, nil included.
    @Test(arguments: TestShards.of(2))
    func dayWalkSetsAgreeWithFoundation(shard: Int) throws {
        try CalendarOracle.expectAgreement(seed: 0xDA7_5400 + UInt64(shard), count: 300, zones: Self.zones) { generator, _ in
            var components = DateComponents()
            switch generator.int(0...2) {
            case 0: components.weekdayOrdinal = generator.chance(0.5) ? 5 : generator.int(1...4)
            case 1: components.weekOfMonth = generator.int(1...6)
            default: components.month = generator.int(1...12)
            }
            if generator.chance(0.6) { components.day = generator.int(1...31) }
            if generator.chance(0.5) { components.weekday = generator.int(1...7) }
            if generator.chance(0.4) { components.hour = generator.int(0...23) }
            if generator.chance(0.3) { components.minute = generator.int(0...59) }
            return components
        }
    }
}
