import Foundation
import Testing
@_spi(Internals) @testable import TriggerEngine

/// The early nil of `CalendarSearch+PinnedYear` against the whole search, and
/// the sets it cuts short against Foundation.
@Suite("Calendar search: sets pinned to a year left behind")
struct PinnedYearTests {
    static let zones = WeekWalkTests.zones

    /// A random set with a year or a week-numbering year near `year` (behind
    /// it, around it, ahead of it) and any mix of the other units, months and
    /// days included (the sets the check leaves out must still answer right).
    static func pattern(_ generator: inout CalendarQueryGenerator, year: Int) -> CalendarPattern {
        var pattern = CalendarPattern()
        if generator.chance(0.6) { pattern[.year] = year + generator.int(-12...4) }
        if pattern[.year] == nil || generator.chance(0.2) { pattern[.yearForWeekOfYear] = year + generator.int(-24...4) }
        if generator.chance(0.25) { pattern[.month] = generator.int(1...12) }
        if generator.chance(0.3) { pattern[.day] = generator.chance(0.3) ? generator.int(29...31) : generator.int(1...28) }
        if generator.chance(0.3) { pattern[.weekOfYear] = generator.chance(0.3) ? 53 : generator.int(1...52) }
        if generator.chance(0.2) { pattern[.weekOfMonth] = generator.int(1...6) }
        if generator.chance(0.2) { pattern[.weekdayOrdinal] = generator.int(1...5) }
        if generator.chance(0.3) { pattern[.weekday] = generator.int(1...7) }
        if generator.chance(0.4) { pattern[.hour] = generator.int(0...23) }
        if generator.chance(0.3) { pattern[.minute] = generator.int(0...59) }
        if generator.chance(0.2) { pattern[.second] = generator.int(0...59) }
        return pattern
    }

    /// 4,000 seeded sets and starts in nine zones: with the checks (this one,
    /// and `cannotAnswer`'s for a week-numbering year well behind), the search
    /// answers exactly what it answers without them, and they cut a good
    /// share of the nil answers short (so the comparison is not empty).
    @Test(arguments: 0..<2)
    func theCheckNeverChangesAnAnswer(shard: Int) throws {
        var generator = CalendarQueryGenerator(seed: 0x9179_0000 + UInt64(shard))
        var pinnedNils = 0, farBehind = 0, answers = 0, wrong: [String] = []
        for _ in 0..<2_000 {
            let zone = Self.zones[generator.int(0...Self.zones.count - 1)]
            let after = generator.after(in: zone).timeIntervalSince1970
            let year = 1970 + Int(after / 31_556_952)
            let pattern = Self.pattern(&generator, year: year)
            var search = CalendarSearch(calendar: ZoneCalendar(rules: try ZoneRules.named(zone), near: after), pattern: pattern)
            let checked = search.next(after: after)
            search.askingWhetherAnyAnswer = false
            let whole = search.next(after: after)
            if whole != nil { answers += 1 } else if search.lastYearStepsDependOn != nil { pinnedNils += 1 }
            if pattern[.year] == nil, pattern[.month] != nil || pattern[.day] != nil, search.cannotAnswer(after: after) { farBehind += 1 }
            if checked != whole {
                wrong.append("\(zone) \(pattern) after \(after): with the check \(String(describing: checked)), without \(String(describing: whole))")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) differ, first: \(wrong.prefix(5).joined(separator: "\n"))")
        #expect(pinnedNils >= 400, "nil for \(pinnedNils) pinned sets of 2,000")
        #expect(farBehind >= 50, "\(farBehind) week-year sets with a month or a day cut short (`cannotAnswer`)")
        #expect(answers >= 200, "answers for \(answers) of 2,000")
    }

    /// The sets the check applies to, against Foundation: the first two fire
    /// dates agree (nil for a year behind, dates for a year ahead).
    @Test(arguments: 0..<2)
    func pinnedSetsAgreeWithFoundation(shard: Int) throws {
        let mismatches = try CalendarOracle.mismatches(seed: 0x9179_F000 + UInt64(shard), count: 300, zones: Self.zones) { generator, year in
            var components = DateComponents()
            if generator.chance(0.6) {
                components.year = year + generator.int(-6...2)
                if generator.chance(0.5) { components.month = generator.int(1...12) } else if generator.chance(0.6) { components.day = generator.int(1...31) }
            } else {
                components.yearForWeekOfYear = year + generator.int(-6...2)
            }
            if generator.chance(0.4) { components.weekOfYear = generator.int(1...53) }
            if generator.chance(0.3) { components.weekOfMonth = generator.int(1...6) }
            if generator.chance(0.3) { components.weekdayOrdinal = generator.int(1...5) }
            if generator.chance(0.4) { components.weekday = generator.int(1...7) }
            if generator.chance(0.5) { components.hour = generator.int(0...23) }
            if generator.chance(0.3) { components.minute = generator.int(0...59) }
            return components
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(10).joined(separator: "\n"))")
    }
}
