import Foundation
import Testing
@testable import TriggerEngine
import TestSupport

/// `CivilYear`'s year-by-year arithmetic against `CivilDate`'s closed forms on
/// every day of 1500–3100 and seeded days far outside, and against
/// Foundation's Gregorian calendar on a seeded sample.
@Suite("Calendar: year arithmetic on day numbers")
struct CivilYearTests {
    /// What `DayCursor` keeps of a day, by `CivilDate`.
    static func closedForm(_ day: Int) -> [Int] {
        let (year, month, dayOfMonth) = CivilDate.date(fromDays: day)
        return [year, month, dayOfMonth, CivilDate.weekday(ofDays: day), CivilDate.daysInMonth(year: year, month: month)]
    }

    static func fast(_ day: Int) -> [Int] {
        let fields = CivilYear.fields(ofDay: day)
        return [fields.year, fields.month, fields.day, fields.weekday, fields.monthLength]
    }

    /// Every day from 1 January 1500 to 31 December 3100 (the searches' years
    /// and centuries either side, four century years that are not leap years
    /// and two that are), then 200,000 seeded days from year −5000 to 100,000.
    @Test func everyDayAgreesWithTheClosedForms() {
        var mismatches: [String] = []
        let first = CivilDate.days(year: 1500, month: 1, day: 1), last = CivilDate.days(year: 3100, month: 12, day: 31)
        var days = Array(first...last)
        var generator = SplitMix64(seed: 0xC1_7E4A)
        let low = CivilDate.days(year: -5000, month: 1, day: 1), high = CivilDate.days(year: 100_000, month: 1, day: 1)
        for _ in 0..<200_000 { days.append(Int.random(in: low...high, using: &generator)) }
        for day in days {
            let expected = Self.closedForm(day)
            if Self.fast(day) != expected || CivilYear.year(ofDay: day) != expected[0] {
                mismatches.append("day \(day): \(Self.fast(day)) year \(CivilYear.year(ofDay: day)), expected \(expected)")
            }
            // A cursor put on the day keeps the same fields.
            let cursor = DayCursor(dayNumber: day)
            if [cursor.year, cursor.month, cursor.day, cursor.weekday, cursor.monthLength] != expected {
                mismatches.append("cursor on day \(day)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(days.count): \(mismatches.prefix(10).joined(separator: "\n"))")
    }

    /// 1 January and the Sunday starting week 1 of every year from −2000 to
    /// 12,000: the closed form's day, and a Sunday at most six days before it.
    @Test func yearStartsAgreeWithTheClosedForms() {
        var mismatches: [Int] = []
        for year in -2000...12_000 {
            let january1 = CivilDate.days(year: year, month: 1, day: 1)
            let sunday = CivilYear.firstDayOfWeekYear(year)
            if CivilYear.januaryFirst(year) != january1 || CivilDate.weekday(ofDays: sunday) != 1
                || sunday > january1 || january1 - sunday > 6 || ZoneCalendar.firstDayOfWeekYear(year) != sunday {
                mismatches.append(year)
            }
        }
        #expect(mismatches.isEmpty, "years \(mismatches.prefix(20))")
    }

    /// 20,000 seeded days of 1600–2600 against Foundation's Gregorian calendar
    /// in UTC: year, month, day and weekday (an oracle that shares no code).
    @Test func seededDaysAgreeWithFoundation() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var generator = SplitMix64(seed: 0xF0_0DA7E)
        let low = CivilDate.days(year: 1600, month: 1, day: 1), high = CivilDate.days(year: 2600, month: 12, day: 31)
        var mismatches: [String] = []
        for _ in 0..<20_000 {
            let day = Int.random(in: low...high, using: &generator)
            let parts = calendar.dateComponents([.year, .month, .day, .weekday],
                                                from: Date(timeIntervalSince1970: Double(day) * 86_400 + 43_200))
            let fields = CivilYear.fields(ofDay: day)
            if [fields.year, fields.month, fields.day, fields.weekday] != [parts.year, parts.month, parts.day, parts.weekday] {
                mismatches.append("day \(day): \(fields) against \(parts)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count): \(mismatches.prefix(10).joined(separator: "\n"))")
    }

    /// The 1st of every month of −2000…12,000 against the closed form, and a
    /// cursor put there with its fields; then the jump to a month
    /// (`advance(toMonth:)`) against the walk month by month from 100,000
    /// seeded days.
    @Test func theFirstOfEachMonthAndTheJumpToAMonthAgreeWithTheClosedForms() {
        var mismatches: [String] = []
        for year in -2000...12_000 {
            for month in 1...12 {
                let first = CivilDate.days(year: year, month: month, day: 1)
                let cursor = DayCursor(year: year, month: month)
                if CivilYear.firstOfMonth(year: year, month: month) != first
                    || [cursor.dayNumber, cursor.year, cursor.month, cursor.day, cursor.weekday, cursor.monthLength]
                    != [first] + Self.closedForm(first) {
                    mismatches.append("\(year)-\(month)")
                }
            }
        }
        var generator = SplitMix64(seed: 0x40_7A11)
        let low = CivilDate.days(year: -3000, month: 1, day: 1), high = CivilDate.days(year: 11_000, month: 1, day: 1)
        for _ in 0..<100_000 {
            let day = Int.random(in: low...high, using: &generator)
            let month = Int.random(in: 1...12, using: &generator)
            var walked = DayCursor(dayNumber: day)
            while walked.month != month { walked.stepToNextMonth() }
            var jumped = DayCursor(dayNumber: day)
            jumped.advance(toMonth: month)
            if [jumped.dayNumber, jumped.year, jumped.month, jumped.day, jumped.weekday, jumped.monthLength]
                != [walked.dayNumber, walked.year, walked.month, walked.day, walked.weekday, walked.monthLength] {
                mismatches.append("day \(day) to month \(month): \(jumped.dayNumber) instead of \(walked.dayNumber)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count): \(mismatches.prefix(10).joined(separator: "\n"))")
    }
}
