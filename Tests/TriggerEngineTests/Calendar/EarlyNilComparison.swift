import Foundation
@_spi(Internals) @testable import TriggerEngine

/// The calendar search with and without its early-nil checks
/// (`askingWhetherAnyAnswer`) on seeded sets and starts: the oracle of
/// `NoAnswerTests` and `PinnedYearTests`, since the whole search is
/// Foundation's step for step and the checks may only end it sooner.
struct EarlyNilComparison {
    /// One query: its set, the search (with the checks off, so a test can ask
    /// them directly), its start and the whole search's answer.
    struct Outcome {
        var pattern: CalendarPattern
        var search: CalendarSearch
        var after: Double
        var answer: Double?
    }

    /// Queries whose answers differ, described.
    var differences: [String] = []
    var outcomes: [Outcome] = []

    /// Runs `count` queries in `zones`, the sets drawn by `pattern` (given
    /// the start's year).
    init(seed: UInt64, count: Int, zones: [String],
         pattern: (inout CalendarQueryGenerator, Int) -> CalendarPattern) throws {
        var generator = CalendarQueryGenerator(seed: seed)
        for _ in 0..<count {
            let zone = zones[generator.int(0...zones.count - 1)]
            let after = generator.after(in: zone).timeIntervalSince1970
            compare(pattern(&generator, 1970 + Int(after / 31_556_952)), in: try ZoneRules.named(zone), named: zone, after: after)
        }
    }

    /// An empty comparison, for queries given one by one (`compare`).
    init() {}

    /// Searches for `set` after `after` with the checks and without, and
    /// keeps the outcome (and the difference, if any).
    mutating func compare(_ set: CalendarPattern, in rules: ZoneRules, named zone: String, after: Double) {
        var search = CalendarSearch(calendar: ZoneCalendar(rules: rules, near: after), pattern: set)
        let checked = search.next(after: after)
        search.askingWhetherAnyAnswer = false
        let whole = search.next(after: after)
        if checked != whole {
            differences.append("\(zone) \(set) after \(after): with the checks \(String(describing: checked)), "
                               + "without \(String(describing: whole))")
        }
        outcomes.append(Outcome(pattern: set, search: search, after: after, answer: whole))
    }

    /// The queries answered at 00:00 on 1 March (February's approximation, mostly).
    var firstsOfMarch: Int {
        outcomes.filter { outcome in
            guard let answer = outcome.answer else { return false }
            let fields = outcome.search.calendar.fields(answer)
            return fields.month == 3 && fields.day == 1 && fields.secondOfDay == 0
        }.count
    }

    /// The queries answered with the 1st of the month after the set's month
    /// without showing the set: the missing day's approximation.
    var firstsOfTheFollowingMonth: Int {
        outcomes.filter { outcome in
            guard let answer = outcome.answer, let month = outcome.pattern[.month] else { return false }
            let fields = outcome.search.calendar.fields(answer)
            return fields.day == 1 && fields.month == month % 12 + 1 && outcome.search.mismatches(at: answer, outcome.pattern) != []
        }.count
    }

    /// The queries whose candidates keep the set's month and day
    /// (`candidatesKeepTheMonthAndDay`) and that the check cuts short.
    var cutShortKeepingTheMonthAndDay: Int {
        outcomes.filter { $0.search.candidatesKeepTheMonthAndDay && $0.search.cannotAnswer(after: $0.after) }.count
    }

    /// The search from `searched` (for a query from `start`) with its checks
    /// and without, leaving `search` without them: the answer without, and
    /// the two described in `wrong` when they differ.
    static func answerFrom(_ searched: Double, after start: Double, _ search: inout CalendarSearch,
                           label: String, wrong: inout [String]) -> Double? {
        search.askingWhetherAnyAnswer = true
        let checked = search.next(after: start, searchingFrom: searched)
        search.askingWhetherAnyAnswer = false
        let whole = search.next(after: start, searchingFrom: searched)
        if checked != whole { wrong.append("\(label): with the checks \(String(describing: checked)), without \(String(describing: whole))") }
        return whole
    }

    /// The first few differences, one per line.
    var summary: String { "\(differences.count) differ, first: \(differences.prefix(5).joined(separator: "\n"))" }
}
