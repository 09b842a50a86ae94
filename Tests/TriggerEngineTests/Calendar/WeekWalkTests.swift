import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// The week-number shortcut (`CalendarSearch+WeekWalk`) against the loop it
/// replaces, and the searches it speeds up against Foundation.
///
/// Counts in the tests' comments are of all their shards: by default each runs the first
/// half of them (`TestShards`; `TRIGGERENGINE_ALL_SHARDS=1` runs all).
@Suite("Calendar search: the week-number walk")
struct WeekWalkTests {
    /// Zones whose transitions touch midnight (Santiago, Havana, Beirut,
    /// Asunción), lose a day (Apia 2011), move by half an hour (Lord Howe), or
    /// are ordinary (Berlin, Sydney, New York).
    static let zones = ["America/Santiago", "America/Havana", "Asia/Beirut", "America/Asuncion", "Pacific/Apia",
                        "Australia/Lord_Howe", "Europe/Berlin", "Australia/Sydney", "America/New_York"]

    /// 6,000 seeded starts (a third within a day of a transition) × a week
    /// number 1–53: the shortcut, where it answers, lands where the week-by-week
    /// loop lands; and in zones whose transitions leave midnight alone it
    /// answers nearly all of them (it is not a shortcut otherwise).
    @Test func theShortcutLandsWhereTheLoopLands() throws {
        var generator = CalendarQueryGenerator(seed: 0x3EE4_5301)
        var answered = 0, ordinary = 0, ordinaryAnswered = 0
        var mismatches: [String] = []
        for _ in 0..<6_000 {
            let zone = Self.zones[generator.int(0...Self.zones.count - 1)]
            let after = generator.after(in: zone).timeIntervalSince1970
            let week = generator.chance(0.5) ? 53 : generator.int(1...53)
            var pattern = CalendarPattern()
            pattern[.weekOfYear] = week
            let search = CalendarSearch(calendar: ZoneCalendar(rules: try ZoneRules.named(zone), near: after), pattern: pattern)
            let isOrdinary = ["Europe/Berlin", "Australia/Sydney", "America/New_York", "Australia/Lord_Howe"].contains(zone)
            if isOrdinary { ordinary += 1 }
            guard let shortcut = search.clearWeekAdvance(from: after, to: week) else { continue }
            answered += 1
            if isOrdinary { ordinaryAnswered += 1 }
            let walked = try? search.walk(from: after, by: .weekOfYear, until: .weekOfYear, is: week)
            if walked != shortcut {
                mismatches.append("\(zone) after \(after) week \(week): shortcut \(shortcut), loop \(String(describing: walked))")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(answered): \(mismatches.prefix(10).joined(separator: "\n"))")
        // Where no transition touches midnight the shortcut answers (all but
        // the starts whose first step lands off midnight, next to a transition).
        #expect(ordinaryAnswered * 100 >= ordinary * 95, "the shortcut answered \(ordinaryAnswered) of \(ordinary) in ordinary zones")
    }

    /// Component sets with a week number (53 half of the time, where the walk
    /// is longest) and other units, in the same zones: the first two fire
    /// dates agree with Foundation's, nil included.
    @Test(arguments: TestShards.of(2))
    func weekNumberSetsAgreeWithFoundation(shard: Int) throws {
        try CalendarOracle.expectAgreement(seed: 0x3EE4_5400 + UInt64(shard), count: 300, zones: Self.zones) { generator, _ in
            var components = DateComponents(weekOfYear: generator.chance(0.5) ? 53 : generator.int(1...53))
            if generator.chance(0.5) { components.day = generator.int(1...31) }
            if generator.chance(0.3) { components.weekday = generator.int(1...7) }
            if generator.chance(0.3) { components.month = generator.int(1...12) }
            if generator.chance(0.5) { components.hour = generator.int(0...23) }
            if generator.chance(0.5) { components.minute = generator.int(0...59) }
            return components
        }
    }

    /// The steps on days' walk to a week number (`weekWalk(from:to:)`) against
    /// the walk Sunday by Sunday: 30,000 seeded days of 1600–2600 and weeks
    /// 1–53 (a third of them 53, five to eleven years away), the day itself
    /// when its week has the number. The answers' week numbers are checked
    /// against Foundation's Gregorian calendar on 2,000 of them.
    @Test func theWeekWalkOnDaysIsTheSundayBySundayWalk() {
        func sundayBySunday(from day: Int, to week: Int) -> Int? {
            let weekOf = { (day: Int) in ZoneCalendar.weekOfYear(ofDay: day, inYear: CivilDate.date(fromDays: day).year).week }
            if weekOf(day) == week { return day }
            var sunday = day - (CivilDate.weekday(ofDays: day) - 1) + 7
            for _ in 0..<(40 * 53) {
                if weekOf(sunday) == week { return sunday }
                sunday += 7
            }
            return nil
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        calendar.firstWeekday = 1
        calendar.minimumDaysInFirstWeek = 1
        var generator = CalendarQueryGenerator(seed: 0x3EE4_57A1)
        let low = CivilDate.days(year: 1600, month: 1, day: 1), high = CivilDate.days(year: 2600, month: 12, day: 31)
        var wrong: [String] = [], stayed = 0, moved = 0
        for index in 0..<30_000 {
            let day = generator.int(low...high)
            let week = generator.chance(0.33) ? 53 : generator.int(1...53)
            let expected = sundayBySunday(from: day, to: week)
            let walked = CalendarSearch.weekWalk(from: DayCursor(dayNumber: day), to: week)
            if walked == day { stayed += 1 } else if walked != nil { moved += 1 }
            if walked != expected {
                wrong.append("week \(week) from day \(day): \(String(describing: walked)) instead of \(String(describing: expected))")
            } else if index < 2_000, let walked {
                let foundation = calendar.component(.weekOfYear, from: Date(timeIntervalSince1970: Double(walked) * 86_400 + 43_200))
                if foundation != week { wrong.append("week \(week) from day \(day): day \(walked) is in Foundation's week \(foundation)") }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong, first: \(wrong.prefix(5).joined(separator: "\n"))")
        // Both outcomes are exercised: days already in the week, and walks to a later one.
        #expect(stayed > 300)
        #expect(moved > 25_000)
    }
}
