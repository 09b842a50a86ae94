import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// YEARLY rules with BYWEEKNO, where RFC 5545 and python-dateutil part ways: the
/// period is the week-numbering year (weeks from WKST; week 1 is the first with
/// four days in the year), so INTERVAL counts those years and BYSETPOS picks
/// within one, and a rule without a day part takes DTSTART's weekday. The
/// oracle walks every day of each period and numbers its week with Foundation's
/// Gregorian calendar (`firstWeekday` = WKST, `minimumDaysInFirstWeek` = 4).
@Suite("RecurrenceRule: BYWEEKNO over week-numbering years, against Foundation's week numbers")
struct RecurrenceWeekNumberTests {
    static let limit = 8

    /// The first `limit` instances (local seconds) by brute force, looking at
    /// most `years` week-numbering years past DTSTART's.
    static func oracle(_ rule: RecurrenceRule, start: LocalDateTime, years: Int = 40) -> [Int] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        calendar.firstWeekday = rule.weekStart.rawValue
        calendar.minimumDaysInFirstWeek = 4
        let startDate = Date(timeIntervalSince1970: Double(start.localSeconds))
        let startFields = start.fields
        let firstYear = calendar.component(.yearForWeekOfYear, from: startDate)
        let weekdays = rule.byDay.isEmpty && rule.byMonthDay.isEmpty && rule.byYearDay.isEmpty
            ? [start.weekday] : rule.byDay.map(\.weekday.rawValue)
        let times = Set((rule.byHour.isEmpty ? [startFields.hour] : rule.byHour).flatMap { hour in
            (rule.byMinute.isEmpty ? [startFields.minute] : rule.byMinute).flatMap { minute in
                (rule.bySecond.isEmpty ? [startFields.second] : rule.bySecond).map { hour * 3600 + minute * 60 + $0 }
            }
        }).sorted()
        var found: [Int] = []
        var counted = 0
        for year in stride(from: firstYear, through: firstYear + years, by: rule.interval) {
            var components = DateComponents()
            (components.yearForWeekOfYear, components.weekOfYear, components.weekday) = (year, 1, rule.weekStart.rawValue)
            guard let weekOne = calendar.date(from: components),
                  let weeks = calendar.range(of: .weekOfYear, in: .yearForWeekOfYear, for: weekOne)?.count else { continue }
            var period: [Int] = []
            for offset in 0..<(weeks * 7) {
                let day = Int(weekOne.timeIntervalSince1970) / 86_400 + offset
                let date = Date(timeIntervalSince1970: Double(day * 86_400))
                let week = calendar.component(.weekOfYear, from: date)
                guard rule.byWeekNo.contains(where: { $0 == week || $0 == week - weeks - 1 }),
                      weekdays.contains(calendar.component(.weekday, from: date)) else { continue }
                let (_, month, dayOfMonth, _, _, _) = LocalDateTime(localSeconds: day * 86_400).fields
                let monthLength = calendar.range(of: .day, in: .month, for: date)!.count
                let dayOfYear = calendar.ordinality(of: .day, in: .year, for: date)!
                let yearLength = calendar.range(of: .day, in: .year, for: date)!.count
                guard rule.byMonth.isEmpty || rule.byMonth.contains(month),
                      rule.byMonthDay.isEmpty || rule.byMonthDay.contains(where: { $0 == dayOfMonth || $0 == dayOfMonth - monthLength - 1 }),
                      rule.byYearDay.isEmpty || rule.byYearDay.contains(where: { $0 == dayOfYear || $0 == dayOfYear - yearLength - 1 })
                else { continue }
                period += times.map { day * 86_400 + $0 }
            }
            if !rule.bySetPos.isEmpty {
                period = Array(Set(rule.bySetPos.compactMap { position in
                    let index = position > 0 ? position - 1 : period.count + position
                    return period.indices.contains(index) ? period[index] : nil
                })).sorted()
            }
            for wall in period where wall >= start.localSeconds {
                counted += 1
                if case .count(let count) = rule.end, counted > count { return found }
                if case .until(.local(let until)) = rule.end, wall > until.localSeconds { return found }
                found.append(wall)
                if found.count == limit { return found }
            }
        }
        return found
    }

    @Test func randomWeekNumberRulesMatchTheWeekYearOracle() throws {
        var random = SplitMix64(seed: 0x5745_454B)
        func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
        let days = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
        var mismatches: [String] = []
        var compared = 0
        for _ in 0..<200 {
            var parts = ["FREQ=YEARLY", "BYWEEKNO=" + Set((0..<int(1...2)).map { _ in int(0...2) == 0 ? -int(1...53) : int(1...53) }).map(String.init).joined(separator: ",")]
            if int(0...1) == 0 { parts.append("INTERVAL=\(int(2...4))") }
            if int(0...2) == 0 { parts.append("BYDAY=" + Set((0..<int(1...3)).map { _ in days[int(0...6)] }).joined(separator: ",")) }
            if int(0...4) == 0 { parts.append("BYMONTH=\(int(1...12)),\(int(1...12))") }
            if int(0...3) == 0 { parts.append("BYSETPOS=" + (int(0...1) == 0 ? "1" : "-1,2")) }
            if int(0...3) == 0 { parts.append("BYHOUR=\(int(0...23)),\(int(0...23))") }
            parts.append("WKST=" + days[int(0...6)])
            switch int(0...2) {
            case 0: parts.append("COUNT=\(int(1...10))")
            case 1: parts.append(String(format: "UNTIL=%04d0101T000000", int(2031...2060)))
            default: break
            }
            let text = parts.joined(separator: ";")
            let rule = try RecurrenceRule(parsing: text)
            let start = LocalDateTime.valid(year: int(1995...2030), month: int(1...12), day: int(1...28), hour: int(0...23), minute: int(0...59))!
            // Compared over the 39 calendar years from DTSTART's (the oracle looks 40 week-numbering years ahead).
            let horizon = { (wall: Int) in LocalDateTime(localSeconds: wall).fields.year < start.fields.year + 39 }
            let ours = Array(rule.instances(startingAt: start).prefix(Self.limit)).map(\.localSeconds).filter(horizon)
            let theirs = Self.oracle(rule, start: start).filter(horizon)
            compared += 1
            if ours != theirs {
                mismatches.append("\(text) DTSTART \(start):\n    ours   \(ours.map { LocalDateTime(localSeconds: $0) })\n    oracle \(theirs.map { LocalDateTime(localSeconds: $0) })")
            }
        }
        #expect(compared == 200)
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(compared) differ; first:\n\(mismatches.prefix(6).joined(separator: "\n"))")
    }

    @Test func week53EndsInJanuaryAndIntervalCountsWeekYears() throws {
        // 2026 has 53 ISO weeks: week 53 runs Monday 28 December 2026 to Sunday 3 January 2027.
        // Every second week-year from 2026: 2026, 2028 (52 weeks: no week 53), 2030 (no), 2032 (53: 27 Dec 2032 – 2 Jan 2033).
        let rule = try RecurrenceRule(parsing: "FREQ=YEARLY;INTERVAL=2;BYWEEKNO=53;BYDAY=SA,SU")
        let start = LocalDateTime.valid(year: 2026, month: 1, day: 5, hour: 9)!
        #expect(Array(rule.instances(startingAt: start).prefix(4)).map(\.description) == [
            "2027-01-02T09:00:00", "2027-01-03T09:00:00", "2033-01-01T09:00:00", "2033-01-02T09:00:00",
        ])
        // Calendar-year periods would have put 2027's January days in 2027, an odd year, and skipped them.
    }

    @Test func weekNumberWithoutDayTakesDtstartsWeekday() throws {
        // RFC 5545 §3.3.10: what the rule does not say comes from DTSTART, a Wednesday:
        // the Wednesday of week 20 each year, not all seven days (dateutil's reading).
        let rule = try RecurrenceRule(parsing: "FREQ=YEARLY;BYWEEKNO=20")
        let start = LocalDateTime.valid(year: 2026, month: 1, day: 7, hour: 8)!
        #expect(Array(rule.instances(startingAt: start).prefix(3)).map(\.description) == [
            "2026-05-13T08:00:00", "2027-05-19T08:00:00", "2028-05-17T08:00:00",
        ])
    }

    @Test func yearlyMonthDayWithoutMonthTakesDtstartsMonth() throws {
        // DTSTART is in March: the 1st and 15th of March each year, not of every month.
        let rule = try RecurrenceRule(parsing: "FREQ=YEARLY;BYMONTHDAY=1,15;COUNT=4")
        let start = LocalDateTime.valid(year: 2026, month: 3, day: 1, hour: 10)!
        #expect(Array(rule.instances(startingAt: start)).map(\.description) == [
            "2026-03-01T10:00:00", "2026-03-15T10:00:00", "2027-03-01T10:00:00", "2027-03-15T10:00:00",
        ])
    }

    @Test func trailingSemicolonIsAccepted() throws {
        #expect(try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=2;") == RecurrenceRule(parsing: "FREQ=DAILY;COUNT=2"))
        #expect(throws: DataError.self) { try RecurrenceRule(parsing: "FREQ=DAILY;;COUNT=2") }
    }
}
