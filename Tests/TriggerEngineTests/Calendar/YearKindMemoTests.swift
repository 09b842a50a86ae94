import Foundation
import Testing
@_spi(Internals) @testable import TriggerEngine

/// `CalendarSearch+YearKindMemo`: steps of one kind of year find nothing and
/// move alike, and searches that look steps up answer as the whole search.
struct YearKindMemoTests {
    /// Zones with one offset and zones with daylight time (some whose rules
    /// changed after 1990: New York 2007, Sydney 2008, Santiago, Apia's ended).
    static let zones = ["UTC", "Asia/Kolkata", "Etc/GMT+5", "America/New_York", "Europe/Berlin", "Australia/Sydney",
                        "America/Santiago", "Australia/Lord_Howe", "Pacific/Apia", "Pacific/Chatham"]

    /// A set with a month or a week number (not 53), no year, and some of the
    /// other units; often one that matches rarely or never.
    static func memoSet(_ generator: inout CalendarQueryGenerator) -> CalendarPattern {
        var set = CalendarPattern()
        let both = generator.chance(0.5)
        if both || generator.chance(0.5) { set[.month] = generator.int(1...12) }
        if both || set[.month] == nil { set[.weekOfYear] = generator.int(1...52) }
        if generator.chance(0.5) { set[.day] = generator.int(1...31) }
        if generator.chance(0.3) { set[.weekday] = generator.int(1...7) }
        if generator.chance(0.2) { set[.weekdayOrdinal] = generator.int(1...5) }
        if generator.chance(0.2) { set[.weekOfMonth] = generator.int(1...6) }
        if generator.chance(0.4) { set[.hour] = generator.int(0...23) }
        if generator.chance(0.5) { set[.minute] = generator.int(0...59) }
        if generator.chance(0.4) { set[.second] = generator.int(0...59) }
        return set
    }

    /// Starts from 1990 to 2150: many searches cross 2100, which is not a leap year.
    static func start(_ generator: inout CalendarQueryGenerator) -> Double {
        Double(generator.int(631_152_000...5_680_281_600)) + (generator.chance(0.1) ? 0.5 : 0)
    }

    /// A seeded query: its zone, set, start and search.
    static func query(_ generator: inout CalendarQueryGenerator) throws -> (String, CalendarPattern, Double, CalendarSearch) {
        let zone = zones[generator.int(0...zones.count - 1)]
        let set = memoSet(&generator)
        let after = start(&generator)
        return (zone, set, after, CalendarSearch(calendar: ZoneCalendar(rules: try ZoneRules.named(zone), near: after), pattern: set))
    }

    /// The claim the memo rests on, step by step: every step taken from a date
    /// whose key (under any count of leap years) an earlier step of the same
    /// search was kept under had found nothing and moved by the same amount.
    /// Each step is taken whatever the keys say, so a key too narrow for what a
    /// step reads shows as a step that found something else.
    @Test func stepsOfOneKindFindNothingAndMoveAlike() throws {
        var generator = CalendarQueryGenerator(seed: 0x7EA2_C1D5)
        var repeated = 0, searches = 0, narrow = 0
        var wrong: [String] = []
        for _ in 0..<1_500 {
            let (zone, set, after, search) = try Self.query(&generator)
            guard let memo = search.yearKindMemo(after: after) else {
                wrong.append("\(zone) \(set): no memo")
                continue
            }
            searches += 1
            var advances: [Int: Double] = [:]
            var searching = after
            for _ in 0..<CalendarSearch.stepLimit {
                var reached = searching
                guard let (result, next) = try? search.step(start: after, searching: searching, reached: &reached) else { break }
                if let place = memo.place(searching: searching, start: after) {
                    let keys = (0...12).map { memo.key(place, leapYears: $0) }
                    if let advance = keys.lazy.compactMap({ advances[$0] }).first {
                        repeated += 1
                        if result != nil || next - searching != advance {
                            wrong.append("\(zone) \(set) after \(after): from \(searching) found \(String(describing: result)), "
                                         + "moved \(next - searching), where its kind moved \(advance)")
                        }
                    }
                    if result == nil, let count = memo.leapYears(place, reached: reached) {
                        advances[keys[count]] = next - searching
                        if count < 3 { narrow += 1 }
                    }
                }
                if result != nil { break }
                searching = next
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) steps: \(wrong.prefix(5))")
        // Most of these searches run all their steps: the kinds repeat often.
        #expect(searches > 1_400)
        #expect(repeated > 40_000, "\(repeated) steps of a kind seen before")
        // Many steps read two years or less: their keys are narrower than the whole window's.
        #expect(narrow > 20_000, "\(narrow) steps kept under fewer than three leap years")
    }

    /// How many leap years a step's key holds follows from what it read: a
    /// fixed zone's step that reads no further than January of Y + 1 holds Y
    /// alone, one with daylight time holds Y + 1 as well (its transitions
    /// follow whole kinds of years), and one reading into December of Y + 1
    /// holds both.
    @Test func aStepsKeyHoldsTheLeapYearsItRead() throws {
        let after = 1_800_000_000.0  // January 2027
        func memo(_ zone: String, _ units: [CalendarUnit: Int]) throws -> CalendarSearch.YearKindMemo {
            var set = CalendarPattern()
            for (unit, value) in units { set[unit] = value }
            return try #require(CalendarSearch(calendar: ZoneCalendar(rules: try ZoneRules.named(zone), near: after), pattern: set)
                .yearKindMemo(after: after))
        }
        let utc = try memo("UTC", [.month: 12, .day: 14, .weekOfYear: 1])
        let berlin = try memo("Europe/Berlin", [.month: 12, .day: 14, .weekOfYear: 1])
        #expect(!utc.zoneChangesOffset && berlin.zoneChangesOffset)
        #expect(try !memo("Asia/Kolkata", [.month: 4, .weekOfYear: 19]).zoneChangesOffset)
        let january2031 = 1_924_992_000.0
        let utcPlace = try #require(utc.place(searching: january2031, start: after))
        let berlinPlace = try #require(berlin.place(searching: january2031 - 3600, start: after))
        let january14Of2032 = 1_957_651_200.0, december14Of2032 = 1_986_595_200.0
        #expect(utc.leapYears(utcPlace, reached: january14Of2032) == 1)
        #expect(berlin.leapYears(berlinPlace, reached: january14Of2032) == 2)
        #expect(utc.leapYears(utcPlace, reached: december14Of2032) == 2)
        // 2031 and 2042 both start on a Wednesday and are not leap years:
        // a step reading 2031 alone shares its key with one reading 2042
        // alone, but not when it reads on into 2032, a leap year (2043 is not).
        let january2042 = 2_272_147_200.0
        let later = try #require(utc.place(searching: january2042, start: after))
        #expect(utc.key(utcPlace, leapYears: 1) == utc.key(later, leapYears: 1))
        #expect(utc.key(utcPlace, leapYears: 2) != utc.key(later, leapYears: 2))
        #expect(utc.key(utcPlace, leapYears: 1) != utc.key(utcPlace, leapYears: 2))
    }

    /// Whole searches: with the memo (and the other checks) as without any check.
    @Test func searchesLookingStepsUpAnswerAsTheWholeSearch() throws {
        var generator = CalendarQueryGenerator(seed: 0x7EA2_5EA1)
        var nil_ = 0, answered = 0
        var wrong: [String] = []
        for _ in 0..<800 {
            let (zone, set, after, drawn) = try Self.query(&generator)
            var search = drawn
            let checked = search.next(after: after)
            search.askingWhetherAnyAnswer = false
            let whole = search.next(after: after)
            if checked != whole {
                wrong.append("\(zone) \(set) after \(after): \(String(describing: checked)), whole search \(String(describing: whole))")
            }
            if whole == nil { nil_ += 1 } else { answered += 1 }
        }
        #expect(wrong.isEmpty, "\(wrong.count) answers differ: \(wrong.prefix(5))")
        #expect(nil_ > 200 && answered > 200, "\(nil_) nil, \(answered) answered")
    }

    /// Where the memo is not used: a year in the set, week 53, neither a month
    /// nor a week number; and no key before a zone's offsets follow the kinds of years.
    @Test func theMemoStaysOutWhereItsReasoningDoesNotHold() throws {
        let after = 1_800_000_000.0
        func memo(_ zone: String, _ units: [CalendarUnit: Int], after: Double = after) throws -> CalendarSearch.YearKindMemo? {
            var set = CalendarPattern()
            for (unit, value) in units { set[unit] = value }
            return CalendarSearch(calendar: ZoneCalendar(rules: try ZoneRules.named(zone), near: after), pattern: set)
                .yearKindMemo(after: after)
        }
        #expect(try memo("UTC", [.month: 4, .weekOfYear: 19])?.readsYearModFour == false)
        #expect(try memo("Asia/Kolkata", [.month: 2, .day: 29, .weekOfYear: 9])?.readsYearModFour == true)
        #expect(try memo("UTC", [.year: 2030, .month: 4, .weekOfYear: 19]) == nil)
        #expect(try memo("UTC", [.month: 4, .yearForWeekOfYear: 2030]) == nil)
        #expect(try memo("UTC", [.month: 12, .weekOfYear: 53]) == nil)
        #expect(try memo("UTC", [.day: 14, .hour: 3]) == nil)
        // New York's rules since 2007: a date in 2007 has no key (its window starts in 2006), one in 2008 has.
        let newYork = try #require(try memo("America/New_York", [.month: 4, .weekOfYear: 19], after: 0))
        #expect(newYork.place(searching: 1_180_000_000, start: 0) == nil)  // May 2007
        #expect(newYork.place(searching: 1_210_000_000, start: 0) != nil)  // May 2008
        // Nor when the year before the date's does not lie a day after the start.
        #expect(newYork.place(searching: 1_210_000_000, start: 1_199_000_000) == nil)
    }
}
