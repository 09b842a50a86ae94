import Foundation
import Testing
@_spi(Internals) @testable import TriggerEngine

extension StepsOnDaysTests {
    /// The outcomes the steps on days keep by kind of year, looked up or
    /// taken again: the same steps, to the same end. Sets with a week number,
    /// a 53rd in most of them (whose walks reach up to eleven years and whose
    /// keys hold twelve), from dates in 2040–2110 and 2160–2210, so that many
    /// searches cross 2100 or 2200, which are not leap years. A key of four
    /// years or fewer under twelve-year walks fails it; one of six or eleven
    /// does not (within a century the first years' leap years decide the
    /// rest, and the steps of this sample never met the exception).
    @Test func keptOutcomesChangeNoStep() throws {
        var generator = CalendarQueryGenerator(seed: 0x0DA7_5E53)
        let zones = ["UTC", "America/New_York", "Europe/Berlin", "Asia/Kolkata", "Australia/Sydney"]
        var wrong: [String] = [], followedFar = 0
        for _ in 0..<1_500 {
            let zone = zones[generator.int(0...zones.count - 1)]
            let year = generator.chance(0.5) ? generator.int(2040...2110) : generator.int(2160...2210)
            let after = Double(CivilYear.januaryFirst(year) * 86_400 + generator.int(0...365 * 86_400))
            var pattern = generator.chance(0.5) ? Self.pattern(&generator, year: year) : Self.patternWithoutADay(&generator, year: year)
            for unit in [CalendarUnit.month, .year, .yearForWeekOfYear] { pattern[unit] = nil }
            pattern[.weekOfYear] = generator.chance(0.7) ? 53 : generator.int(1...52)
            var search = CalendarSearch(calendar: ZoneCalendar(rules: try ZoneRules.named(zone), near: after), pattern: pattern)
            let from = search.calendar.addingDays(40, to: after)
            let lookedUp = search.stepsOnDays(from: from, start: after, stepsLeft: 97)
            search.lookingUpDayStepOutcomes = false
            let taken = search.stepsOnDays(from: from, start: after, stepsLeft: 97)
            if lookedUp != taken {
                wrong.append("\(zone) \(pattern) after \(after): \(lookedUp), every step taken \(taken)")
            }
            switch taken {
            case .noAnswer: followedFar += 1
            case let .stepFrom(_, steps) where steps >= 30: followedFar += 1
            default: break
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) differ: \(wrong.prefix(5))")
        // Most are followed far enough to meet their kinds of year again.
        #expect(followedFar > 500, "\(followedFar) of 1,500 followed 30 steps or to nil")
    }
}
