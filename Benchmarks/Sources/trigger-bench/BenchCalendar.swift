import ArgumentParser
import Foundation
@_spi(Internals) import TriggerEngine

/// `trigger-bench calendar`: next-fire queries, in one run on the same
/// seeded queries — (a) `CalendarTrigger` against Foundation's
/// `Calendar.nextDate(after:matching:matchingPolicy: .nextTime,
/// repeatedTimePolicy: .first, direction: .forward)`, on random component sets
/// and on three named shapes; (b) `RecurrenceTrigger` against libical's
/// iterator (`icalrecur_iterator_new` + `icalrecur_iterator_set_start` +
/// `icalrecur_iterator_next`); (c) the first fire dates of a million calendar
/// triggers on one core. Every comparison also checks that both sides answer the same.
struct BenchCalendar: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendar",
        abstract: "Next-fire queries against Foundation's Calendar.nextDate and libical's iterator; 1,000,000 first fires (same queries, one run)."
    )

    @Option(help: "Cold calendar queries (random component set, random after, five zones) that ours answers.")
    var queries = 100_000

    @Option(help: "How many of those Foundation answers too: a seeded subsample (0: all of them).")
    var foundationQueries = 5_000

    @Option(help: "Queries per named shape (07:00 daily, Monday 09:30, 29 February 08:00).")
    var shapeQueries = 300

    @Option(help: "RRULE queries (random rule, DTSTART years back, random after) for ours and libical.")
    var rruleQueries = 20_000

    @Option(help: "Calendar triggers whose first fire date is computed in part (c).")
    var triggers = 1_000_000

    @Option(help: "Timed runs of each contender; the median is reported.")
    var runs = 3

    @Option(help: "Seed of the generated queries.")
    var seed: UInt64 = 2026

    @Flag(help: "Also print ours' deciles and median per component set (the 25 commonest sets) in part (a).")
    var breakdown = false

    @Flag(help: "With --breakdown, also list every query over 20 µs (set, zone, components, answer), one a line.")
    var listSlow = false

    /// The zones the queries are spread over: DST in both hemispheres, a
    /// half-hour offset, UTC.
    static let zoneNames = ["America/New_York", "Europe/Berlin", "Asia/Kolkata", "Australia/Sydney", "UTC"]

    func validate() throws {
        guard queries > 0, shapeQueries > 0, rruleQueries > 0, triggers > 0, runs > 0, foundationQueries >= 0 else {
            throw ValidationError("--queries, --shape-queries, --rrule-queries, --triggers and --runs must be positive")
        }
    }

    func run() throws {
        let zones = try Self.zoneNames.map { name throws(DataError) in try ZoneRules.named(name) }
        print("trigger-bench calendar: seed \(seed), medians of \(runs) runs, one thread; "
              + "per-query times include one clock_gettime pair (\(Self.timerOverhead()) ns)")
        var random = BenchRandom(seed: seed)
        let calendarMismatches = try calendarQueries(zones: zones, using: &random)
        let shapeMismatches = try namedShapes(zones: zones, using: &random)
        let rruleMismatches = try recurrenceQueries(using: &random)
        try firstFires(zones: zones, using: &random)
        if calendarMismatches + shapeMismatches + rruleMismatches > 0 { throw ExitCode(70) }
    }

    // MARK: - (a) Calendar triggers against Foundation

    struct CalendarQuery {
        var components: DateComponents
        var trigger: CalendarTrigger
        var zone: Int
        var after: Date
    }

    /// Random component sets as in the differential test's spirit: half shaped
    /// like real triggers, half any subset of the units.
    private func calendarQueries(zones: [ZoneRules], using random: inout BenchRandom) throws -> Int {
        let calendars = Self.zoneNames.map(Self.gregorian)
        var list: [CalendarQuery] = []
        list.reserveCapacity(queries)
        for _ in 0..<queries {
            let zone = Int(random.next() % UInt64(zones.count))
            let after = Self.randomAfter(using: &random)
            let components = Self.randomComponents(using: &random)
            list.append(CalendarQuery(components: components,
                                      trigger: try CalendarTrigger(dateMatching: components, repeats: true, timeZone: .fixed(zones[zone])),
                                      zone: zone, after: after))
        }
        let compared = Self.sample(foundationQueries == 0 ? queries : min(foundationQueries, queries), of: queries, using: &random)
        print("")
        print("(a) calendar: \(queries) cold queries (random component set, random after 2000–2040, zones \(Self.zoneNames.joined(separator: ", ")))")
        print("    ours = CalendarTrigger.nextTriggerDate(after:); Foundation = Calendar.nextDate(after:matching:.nextTime,.first,.forward)"
              + (compared.count < queries ? ", timed on a seeded subsample of \(compared.count) of the same queries" : ""))
        // Each side reads its inputs from arrays of its own, as a scheduler would hold them.
        let triggers = list.map(\.trigger), afters = list.map(\.after)
        let components = compared.map { list[$0].components }, comparedAfters = compared.map { list[$0].after }
        let comparedCalendars = compared.map { calendars[list[$0].zone] }
        var oursAnswers: [Date?] = []
        let ours = Self.timed(runs: runs, count: list.count) { index in
            triggers[index].nextTriggerDate(after: afters[index])
        } answers: { oursAnswers = $0 }
        var foundationAnswers: [Date?] = []
        let foundation = Self.timed(runs: runs, count: compared.count) { position in
            comparedCalendars[position].nextDate(after: comparedAfters[position], matching: components[position],
                                                 matchingPolicy: .nextTime, repeatedTimePolicy: .first, direction: .forward)
        } answers: { foundationAnswers = $0 }
        if breakdown {
            let sorted = ours.perQuery[0].sorted()
            print("    ours, first run: deciles (ns) \((1...9).map { Int(sorted[sorted.count * $0 / 10]) }); median by component set:")
            var byShape: [String: [Double]] = [:]
            for (index, query) in list.enumerated() {
                let key = Self.shapeKey(query.components)
                byShape[key, default: []].append(ours.perQuery[0][index])
            }
            for (key, times) in byShape.sorted(by: { $0.value.count > $1.value.count }).prefix(25) {
                let sortedTimes = times.sorted()
                print("    \(key): \(times.count) median \(Int(Timing.middle(times))) p99 \(Int(sortedTimes[min(sortedTimes.count - 1, sortedTimes.count * 99 / 100)]))")
            }
            // Where the mean goes: the sets by their share of the total time, and the slowest queries.
            let total = ours.perQuery[0].reduce(0, +)
            print("    ours, first run: the component sets taking most of the time (count, median, p99, max, share):")
            for (key, times) in byShape.sorted(by: { $0.value.reduce(0, +) > $1.value.reduce(0, +) }).prefix(15) {
                let sortedTimes = times.sorted()
                print(String(format: "    %@: %d  median %.0f ns  p99 %.0f ns  max %.0f ns  %.1f%%", key, times.count,
                             Timing.middle(times), sortedTimes[min(sortedTimes.count - 1, sortedTimes.count * 99 / 100)],
                             sortedTimes.last ?? 0, 100 * times.reduce(0, +) / total))
            }
            // The issue's per-set target: p99 ≤ 20 µs for every set (with one query, its only time).
            let overTarget = byShape.filter { _, times in
                let sortedTimes = times.sorted()
                return sortedTimes[min(sortedTimes.count - 1, sortedTimes.count * 99 / 100)] > 20_000
            }
            let common = byShape.filter { $0.value.count >= 100 }
            print("    sets with 100 queries or more: \(common.count - common.keys.filter { overTarget[$0] != nil }.count) of \(common.count) within p99 20 µs "
                  + "(they hold \(common.values.map(\.count).reduce(0, +)) of the \(list.count) queries)")
            for (key, times) in common.filter({ overTarget[$0.key] != nil }).sorted(by: { $0.value.count > $1.value.count }) {
                let sortedTimes = times.sorted()
                print(String(format: "      over: %@ (%d queries) p99 %.0f ns", key, times.count, sortedTimes[sortedTimes.count * 99 / 100]))
                // Its slowest queries, to see which shapes of the set hold it back.
                let slowest = list.indices.filter { Self.shapeKey(list[$0].components) == key }
                    .sorted { ours.perQuery[0][$0] > ours.perQuery[0][$1] }.prefix(3)
                for index in slowest {
                    let query = list[index]
                    print(String(format: "        %.0f ns  %@ %@ after %.0f -> %@", ours.perQuery[0][index], Self.zoneNames[query.zone],
                                 Self.text(query.components), query.after.timeIntervalSince1970, Self.text(oursAnswers[index])))
                }
            }
            if listSlow {
                for (index, query) in list.enumerated() where ours.perQuery[0][index] > 20_000 {
                    print(String(format: "    over 20 µs: %.0f ns  %@ | %@ | %@ after %.0f -> %@", ours.perQuery[0][index],
                                 Self.shapeKey(query.components), Self.zoneNames[query.zone], Self.text(query.components),
                                 query.after.timeIntervalSince1970, Self.text(oursAnswers[index])))
                }
            }
            let overQueries = ours.perQuery[0].filter { $0 > 20_000 }
            print(String(format: "    sets with p99 over 20 µs: %d of %d; queries over 20 µs: %d (%.2f%%), %.1f%% of the time", overTarget.count,
                         byShape.count, overQueries.count, 100 * Double(overQueries.count) / Double(list.count),
                         100 * overQueries.reduce(0, +) / total))
            // Per zone: a fixed offset (UTC, Kolkata) against daylight time.
            for (zone, name) in Self.zoneNames.enumerated() {
                let times = list.indices.filter { list[$0].zone == zone }.map { ours.perQuery[0][$0] }
                print(String(format: "      %@: mean %.0f ns over %d queries", name, times.reduce(0, +) / Double(max(times.count, 1)), times.count))
            }
            do {
                var count = 0, time = 0.0
                for (index, query) in list.enumerated() where ours.perQuery[0][index] > 20_000 {
                    let c = query.components
                    if c.hour == nil && c.minute == nil && c.second == nil { count += 1; time += ours.perQuery[0][index] }
                }
                print(String(format: "      over 20 µs without hour, minute, second: %d queries, %.1f%% of the time", count, 100 * time / total))
            }
            do {
                // Nil answers after up to 101 steps, or answers far ahead.
                var nils = (0, 0.0), near = (0, 0.0), far = (0, 0.0)
                for (index, query) in list.enumerated() where ours.perQuery[0][index] > 20_000 {
                    let time = ours.perQuery[0][index]
                    if let answer = oursAnswers[index] {
                        if answer.timeIntervalSince(query.after) > 366 * 86_400 { far.0 += 1; far.1 += time } else { near.0 += 1; near.1 += time }
                    } else {
                        nils.0 += 1; nils.1 += time
                    }
                }
                print(String(format: "      over 20 µs: nil %d queries (%.1f%% of the time), answered within a year %d (%.1f%%), later %d (%.1f%%)",
                             nils.0, 100 * nils.1 / total, near.0, 100 * near.1 / total, far.0, 100 * far.1 / total))
            }
            // Which units the slow queries have in common.
            for unit in ["weekOfYear", "weekdayOrdinal", "weekOfMonth", "yearForWeekOfYear", "weekday", "day", "month", "year"] {
                var count = 0, time = 0.0
                for (index, query) in list.enumerated() where ours.perQuery[0][index] > 20_000 {
                    if Self.text(query.components).split(separator: ",").contains(where: { $0.hasPrefix(unit + "=") }) {
                        count += 1
                        time += ours.perQuery[0][index]
                    }
                }
                print(String(format: "      over 20 µs with %@: %d queries, %.1f%% of the time", unit, count, 100 * time / total))
            }
            for index in ours.perQuery[0].indices.sorted(by: { ours.perQuery[0][$0] > ours.perQuery[0][$1] }).prefix(8) {
                let query = list[index]
                print(String(format: "    slow: %.0f ns  %@ %@ after %.0f -> %@", ours.perQuery[0][index], Self.zoneNames[query.zone],
                             Self.text(query.components), query.after.timeIntervalSince1970, Self.text(oursAnswers[index])))
            }
        }
        if breakdown && runs > 1 {
            // Robust to a busy machine: each query's fastest run drops the
            // scheduler's preemptions, which a run's mean and p99 keep.
            let fastestOf = list.indices.map { index in ours.perQuery.map { $0[index] }.min() ?? 0 }
            let fastest = fastestOf.sorted()
            print(String(format: "    ours, each query's fastest of %d runs: mean %.0f ns  p99 %.0f ns", runs,
                         fastest.reduce(0, +) / Double(fastest.count), fastest[fastest.count * 99 / 100]))
            // The per-set target on the same footing: one preempted query in
            // the first run puts a set of a few queries over on its own.
            var fastestByShape: [String: [Double]] = [:]
            for (index, query) in list.enumerated() {
                fastestByShape[Self.shapeKey(query.components), default: []].append(fastestOf[index])
            }
            let overOnFastest = fastestByShape.values.filter { times in
                let sortedTimes = times.sorted()
                return sortedTimes[min(sortedTimes.count - 1, sortedTimes.count * 99 / 100)] > 20_000
            }
            print(String(format: "    sets with p99 over 20 µs on each query's fastest run: %d of %d; queries over 20 µs: %d",
                         overOnFastest.count, fastestByShape.count, fastest.filter { $0 > 20_000 }.count))
            if listSlow {
                // The queries the per-set figure counts, over 20 µs on every run (not only a cold
                // first one), and the slowest under it: how far from the line the slowest sets are.
                let slowest = list.indices.sorted { fastestOf[$0] > fastestOf[$1] }
                for index in slowest.prefix(while: { fastestOf[$0] > 20_000 }) + slowest.drop(while: { fastestOf[$0] > 20_000 }).prefix(5) {
                    let query = list[index], time = fastestOf[index]
                    print(String(format: "    fastest %@ 20 µs: %.0f ns  %@ | %@ | %@ after %.0f -> %@", time > 20_000 ? "over" : "under", time,
                                 Self.shapeKey(query.components), Self.zoneNames[query.zone], Self.text(query.components),
                                 query.after.timeIntervalSince1970, Self.text(oursAnswers[index])))
                }
            }
        }
        let oursOnCompared = Self.Timing(perQuery: ours.perQuery.map { run in compared.map { run[$0] } }, totals: [])
        print(String(format: "    ours        median %8.0f ns  mean %8.0f ns  p99 %8.0f ns   (all %d queries)",
                     ours.median, ours.mean, ours.percentile(0.99), list.count))
        print(String(format: "    ours        median %8.0f ns  on the %d compared queries", oursOnCompared.median, compared.count))
        print(String(format: "    Foundation  median %8.0f ns  mean %8.0f ns  p99 %8.0f ns   (%d queries)",
                     foundation.median, foundation.mean, foundation.percentile(0.99), compared.count))
        print(String(format: "    ratio       %.0f× on the median query, %.0f× on the mean (target ≥ 100× on the mean)",
                     foundation.median / oursOnCompared.median, foundation.mean / oursOnCompared.mean))
        var mismatches: [String] = []
        for (position, index) in compared.enumerated() where oursAnswers[index] != foundationAnswers[position] {
            let query = list[index]
            mismatches.append("\(Self.zoneNames[query.zone]) \(Self.text(query.components)) after \(query.after.timeIntervalSince1970): "
                              + "ours \(Self.text(oursAnswers[index])), Foundation \(Self.text(foundationAnswers[position]))")
        }
        let nils = compared.filter { oursAnswers[$0] == nil }.count
        print("    same answers: \(compared.count - mismatches.count) of \(compared.count) (\(nils) nil on both sides), mismatches \(mismatches.count)")
        for line in mismatches.prefix(10) { print("      mismatch: \(line)") }
        return mismatches.count
    }

    /// The three shapes whose Foundation times the issue quotes (21 µs, 84 µs, 2.5 ms).
    private func namedShapes(zones: [ZoneRules], using random: inout BenchRandom) throws -> Int {
        let calendars = Self.zoneNames.map(Self.gregorian)
        let shapes: [(String, DateComponents)] = [
            ("07:00 daily", DateComponents(hour: 7, minute: 0)),
            ("Monday 09:30", DateComponents(hour: 9, minute: 30, weekday: 2)),
            ("29 February 08:00", DateComponents(month: 2, day: 29, hour: 8, minute: 0)),
        ]
        print("")
        print("(a) named shapes: \(shapeQueries) queries each (random after 2000–2040, the same five zones)")
        var mismatchCount = 0
        for (name, components) in shapes {
            let triggers = try zones.map { zone throws(DataError) in
                try CalendarTrigger(dateMatching: components, repeats: true, timeZone: .fixed(zone))
            }
            let list = (0..<shapeQueries).map { _ in (zone: Int(random.next() % UInt64(zones.count)), after: Self.randomAfter(using: &random)) }
            var oursAnswers: [Date?] = [], foundationAnswers: [Date?] = []
            let ours = Self.timed(runs: runs, count: list.count) { index in
                triggers[list[index].zone].nextTriggerDate(after: list[index].after)
            } answers: { oursAnswers = $0 }
            let foundation = Self.timed(runs: runs, count: list.count) { index in
                calendars[list[index].zone].nextDate(after: list[index].after, matching: components, matchingPolicy: .nextTime,
                                                     repeatedTimePolicy: .first, direction: .forward)
            } answers: { foundationAnswers = $0 }
            let mismatches = zip(oursAnswers, foundationAnswers).filter { $0 != $1 }.count
            mismatchCount += mismatches
            print(String(format: "    %-18@ ours median %7.0f ns   Foundation median %10.0f ns   ratio %6.0f×   mismatches %d",
                         name, ours.median, foundation.median, foundation.median / ours.median, mismatches))
        }
        return mismatchCount
    }

    // MARK: - (b) Recurrence triggers against libical

    struct RecurrenceQuery {
        var text: String
        var trigger: RecurrenceTrigger
        var rule: RecurrenceRule
        var peer: ICalRecurrenceRule
        var start: LocalDateTime
        var after: Int
    }

    private func recurrenceQueries(using random: inout BenchRandom) throws -> Int {
        var list: [RecurrenceQuery] = []
        list.reserveCapacity(rruleQueries)
        for _ in 0..<rruleQueries {
            let (text, start) = Self.randomRule(using: &random)
            let rule = try RecurrenceRule(parsing: text)
            // Queries between 2026 and 2028; DTSTART lies 1 to 10 years before 2026.
            let after = 1_767_225_600 + Int(random.next() % UInt64(2 * 365 * 86_400))
            list.append(RecurrenceQuery(text: text, trigger: try RecurrenceTrigger(rule: rule, start: start, timeZone: .floating),
                                        rule: rule, peer: try ICalRecurrenceRule(parsing: text), start: start, after: after))
        }
        print("")
        print("(b) recurrence: \(list.count) queries (random DAILY/WEEKLY/MONTHLY/YEARLY rule with BYDAY/BYMONTHDAY/BYMONTH/BYHOUR/BYSETPOS,")
        print("    DTSTART 1–10 years back, after in 2026–2027), floating wall time (UTC); both sides parse the rule beforehand")
        print("    left out, as libical 3.0.16 gets them wrong (dateutil agrees with ours): BYSETPOS with BYHOUR, INTERVAL > 1 after set_start")
        print("    ours = RecurrenceTrigger.nextTriggerInstant(after:) on a built trigger; ours+build also builds the trigger")
        print("    libical = icalrecur_iterator_new + icalrecur_iterator_set_start + icalrecur_iterator_next + icalrecur_iterator_free (libical 3.0)")
        var oursAnswers: [Int?] = []
        let ours = Self.timed(runs: runs, count: list.count) { index in
            list[index].trigger.nextTriggerInstant(after: list[index].after)
        } answers: { oursAnswers = $0 }
        let oursBuilding = Self.timed(runs: runs, count: list.count) { index in
            (try? RecurrenceTrigger(rule: list[index].rule, start: list[index].start, timeZone: .floating))?
                .nextTriggerInstant(after: list[index].after)
        } answers: { _ in }
        var peerAnswers: [Int?] = []
        let peer = Self.timed(runs: runs, count: list.count) { index in
            let query = list[index]
            guard let iterator = try? ICalRecurrenceIterator(rule: query.peer, start: Self.icalTime(query.start.localSeconds)) else {
                return nil
            }
            // set_start is inclusive; ours answers strictly after.
            guard (try? iterator.skip(to: Self.icalTime(query.after + 1))) != nil, let next = iterator.next() else { return nil }
            return try? LocalDateTime(year: next.year, month: next.month, day: next.day,
                                 hour: next.hour, minute: next.minute, second: next.second).localSeconds
        } answers: { peerAnswers = $0 }
        print(String(format: "    ours          median %8.0f ns  mean %8.0f ns  p99 %8.0f ns", ours.median, ours.mean, ours.percentile(0.99)))
        print(String(format: "    ours+build    median %8.0f ns  mean %8.0f ns  p99 %8.0f ns",
                     oursBuilding.median, oursBuilding.mean, oursBuilding.percentile(0.99)))
        print(String(format: "    libical       median %8.0f ns  mean %8.0f ns  p99 %8.0f ns", peer.median, peer.mean, peer.percentile(0.99)))
        print(String(format: "    ratio         %.0f× on the median query (%.0f× with the build), %.0f× on the mean (target ≥ 10×)",
                     peer.median / ours.median, peer.median / oursBuilding.median, peer.mean / ours.mean))
        var mismatches: [String] = []
        for index in list.indices where oursAnswers[index] != peerAnswers[index] {
            let query = list[index]
            mismatches.append("\(query.text) DTSTART \(query.start) after \(LocalDateTime(localSeconds: query.after)): "
                              + "ours \(oursAnswers[index].map { "\(LocalDateTime(localSeconds: $0))" } ?? "nil"), "
                              + "libical \(peerAnswers[index].map { "\(LocalDateTime(localSeconds: $0))" } ?? "nil")")
        }
        print("    same answers: \(list.count - mismatches.count) of \(list.count), mismatches \(mismatches.count)")
        for line in mismatches.prefix(10) { print("      mismatch: \(line)") }
        return mismatches.count
    }

    // MARK: - (c) A million first fires

    private func firstFires(zones: [ZoneRules], using random: inout BenchRandom) throws {
        let began = Self.now()
        var list: [CalendarTrigger] = []
        list.reserveCapacity(triggers)
        for _ in 0..<triggers {
            let zone = zones[Int(random.next() % UInt64(zones.count))]
            list.append(try CalendarTrigger(dateMatching: Self.triggerComponents(using: &random), repeats: true, timeZone: .fixed(zone)))
        }
        let built = Double(Self.now() - began) / 1e9
        let now = Date(timeIntervalSince1970: 1_795_428_000) // 2026-11-22T10:00:00Z
        var seconds: [Double] = []
        var checksum = 0.0
        for _ in 0..<runs {
            checksum = 0
            let start = Self.now()
            for trigger in list {
                checksum += trigger.nextTriggerDate(after: now)?.timeIntervalSince1970 ?? 0
            }
            seconds.append(Double(Self.now() - start) / 1e9)
        }
        let median = seconds.sorted()[seconds.count / 2]
        print("")
        print("(c) first fires: \(list.count) calendar triggers (daily, weekly, monthly, yearly, nth weekday; five zones) after 2026-11-22T10:00:00Z")
        print(String(format: "    %.3f s on one core = %.0f ns per trigger (runs %@; target ≤ 2 s); triggers built in %.3f s; checksum %.0f",
                     median, median * 1e9 / Double(list.count), seconds.map { String(format: "%.3f", $0) }.joined(separator: ", "),
                     built, checksum))
    }

    // MARK: - Timing

    /// Per-query nanoseconds of each run, and each run's total.
    struct Timing {
        var perQuery: [[Double]]
        var totals: [Double]

        /// The median over runs of each run's median query.
        var median: Double { Self.middle(perQuery.map { Self.middle($0) }) }
        /// The median over runs of each run's mean query.
        var mean: Double { Self.middle(perQuery.map { $0.reduce(0, +) / Double(max($0.count, 1)) }) }

        func percentile(_ p: Double) -> Double {
            Self.middle(perQuery.map { run in
                let sorted = run.sorted()
                return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
            })
        }

        init(perQuery: [[Double]], totals: [Double]) {
            self.perQuery = perQuery
            self.totals = totals
        }

        static func middle(_ values: [Double]) -> Double {
            guard !values.isEmpty else { return 0 }
            let sorted = values.sorted()
            return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
    }

    /// Times `body` on every index, each query on its own, `runs` times; hands
    /// the last run's answers to `answers`.
    static func timed<Answer>(runs: Int, count: Int, _ body: (Int) -> Answer, answers: ([Answer]) -> Void) -> Timing {
        var perQuery: [[Double]] = []
        var totals: [Double] = []
        var results: [Answer] = []
        for _ in 0..<runs {
            var times = [Double](repeating: 0, count: count)
            results.removeAll(keepingCapacity: true)
            results.reserveCapacity(count)
            let began = now()
            for index in 0..<count {
                let start = now()
                let answer = body(index)
                let end = now()
                results.append(answer)
                times[index] = Double(end - start)
            }
            totals.append(Double(now() - began))
            perQuery.append(times)
        }
        answers(results)
        return Timing(perQuery: perQuery, totals: totals)
    }

    /// Monotonic nanoseconds.
    @inline(__always)
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// The median cost of an empty timed region, which every per-query time includes.
    static func timerOverhead() -> Int {
        var samples: [UInt64] = []
        for _ in 0..<10_001 {
            let start = now()
            samples.append(now() - start)
        }
        return Int(samples.sorted()[samples.count / 2])
    }

    // MARK: - Generated queries

    static func gregorian(_ zone: String) -> Calendar {
        CalendarTrigger.foundationCalendar(in: TimeZone(identifier: zone)!)
    }

    /// A whole second between 2000-01-01 and 2040-01-01.
    static func randomAfter(using random: inout BenchRandom) -> Date {
        Date(timeIntervalSince1970: Double(946_684_800 + Int(random.next() % UInt64(1_262_304_000))))
    }

    /// `count` distinct indices below `total`, ascending, chosen by the seed.
    static func sample(_ count: Int, of total: Int, using random: inout BenchRandom) -> [Int] {
        guard count < total else { return Array(0..<total) }
        var indices = Array(0..<total)
        for index in 0..<count {
            indices.swapAt(index, index + Int(random.next() % UInt64(total - index)))
        }
        return indices[..<count].sorted()
    }

    /// Half shaped like real triggers (a time of day, maybe a weekday, day,
    /// month or nth weekday), half any subset of the eleven units.
    static func randomComponents(using random: inout BenchRandom) -> DateComponents {
        func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(random.next() % UInt64(range.count)) }
        func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
        if chance(50) { return triggerComponents(using: &random) }
        var c = DateComponents()
        repeat {
            if chance(15) { c.year = int(2000...2045) }
            if chance(30) { c.month = int(1...12) }
            if chance(30) { c.day = int(1...31) }
            if chance(40) { c.hour = int(0...23) }
            if chance(40) { c.minute = int(0...59) }
            if chance(25) { c.second = int(0...59) }
            if chance(30) { c.weekday = int(1...7) }
            if chance(15) { c.weekdayOrdinal = int(1...5) }
            if chance(15) { c.weekOfMonth = int(1...6) }
            if chance(15) { c.weekOfYear = int(1...53) }
            if chance(10) { c.yearForWeekOfYear = int(2000...2045) }
        } while c == DateComponents()
        return c
    }

    /// What scheduled notifications look like: a time of day, daily (30 %),
    /// weekly (25 %), monthly (20 %), yearly (10 %), on the nth weekday (10 %),
    /// or hourly at a minute (5 %).
    static func triggerComponents(using random: inout BenchRandom) -> DateComponents {
        func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(random.next() % UInt64(range.count)) }
        var c = DateComponents(hour: int(0...23), minute: [0, 15, 30, 45, int(0...59)][int(0...4)])
        switch int(0...99) {
        case 0..<30: break
        case 30..<55: c.weekday = int(1...7)
        case 55..<75: c.day = int(1...31)
        case 75..<85: c.month = int(1...12); c.day = int(1...31)
        case 85..<95: c.weekday = int(1...7); c.weekdayOrdinal = int(1...5)
        default: c.hour = nil
        }
        return c
    }

    /// A rule libical 3.0 iterates correctly (no BYWEEKNO, no BYSETPOS outside
    /// MONTHLY and YEARLY, no negative BYMONTHDAY at DAILY, no sub-daily
    /// frequencies, no COUNT, which `icalrecur_iterator_set_start` refuses).
    /// Also left out, because libical 3.0.16 answers them wrongly and dateutil
    /// agrees with ours: BYSETPOS together with BYHOUR (libical picks the
    /// position among days, then keeps only the first hour), and INTERVAL > 1
    /// (`icalrecur_iterator_set_start` counts the interval from the week it
    /// skips to, not from DTSTART's)
    /// and its DTSTART: an instance of the rule's time parts, 1–10 years before 2026.
    static func randomRule(using random: inout BenchRandom) -> (String, LocalDateTime) {
        func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(random.next() % UInt64(range.count)) }
        func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
        let days = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
        func weekdays() -> [String] {
            let count = int(1...3)
            var chosen = Set<String>()
            while chosen.count < count { chosen.insert(days[int(0...6)]) }
            return days.filter(chosen.contains)
        }
        func list(_ values: [Int]) -> String { Array(Set(values)).sorted().map(String.init).joined(separator: ",") }
        var parts: [String] = []
        switch int(0...3) {
        case 0:
            parts.append("FREQ=DAILY")
            if chance(40) { parts.append("BYDAY=" + weekdays().joined(separator: ",")) }
            if chance(20) { parts.append("BYMONTH=" + list([int(1...12), int(1...12)])) }
        case 1:
            parts.append("FREQ=WEEKLY")
            if chance(80) { parts.append("BYDAY=" + weekdays().joined(separator: ",")) }
        case 2:
            parts.append("FREQ=MONTHLY")
            switch int(0...3) {
            case 0: parts.append("BYMONTHDAY=" + list([int(1...28), int(1...28)]))
            case 1: parts.append("BYMONTHDAY=" + [-1, -2, 1, 15][int(0...3)].description)
            case 2: parts.append("BYDAY=" + [1, 2, 3, 4, -1][int(0...4)].description + days[int(0...6)])
            default:
                parts.append("BYDAY=MO,TU,WE,TH,FR")
                parts.append("BYSETPOS=" + [1, -1][int(0...1)].description)
            }
        default:
            parts.append("FREQ=YEARLY")
            switch int(0...2) {
            case 0: parts.append("BYMONTH=\(int(1...12))"); parts.append("BYMONTHDAY=\(int(1...28))")
            case 1: parts.append("BYMONTH=\(int(1...12))"); parts.append("BYDAY=" + [1, 2, -1][int(0...2)].description + days[int(0...6)])
            default: break
            }
        }
        var hour = int(6...20)
        if chance(30), !parts.contains(where: { $0.hasPrefix("BYSETPOS") }) {
            let hours = [int(6...12), int(13...20)]
            parts.append("BYHOUR=" + list(hours))
            hour = hours[0]
        }
        let start = LocalDateTime(localSeconds: (daysBefore2026 - int(365...3650)) * 86_400 + hour * 3600 + 15 * int(0...3) * 60)
        return (parts.joined(separator: ";"), start)
    }

    /// Days from 1970-01-01 to 2026-01-01.
    static let daysBefore2026 = 20_454

    static func icalTime(_ localSeconds: Int) -> ICalDateTime {
        let fields = LocalDateTime(localSeconds: localSeconds).fields
        return ICalDateTime(year: fields.year, month: fields.month, day: fields.day,
                            hour: fields.hour, minute: fields.minute, second: fields.second)
    }

    static func text(_ components: DateComponents) -> String {
        let names: [(String, Int?)] = [("year", components.year), ("month", components.month), ("day", components.day),
                                       ("hour", components.hour), ("minute", components.minute), ("second", components.second),
                                       ("weekday", components.weekday), ("weekdayOrdinal", components.weekdayOrdinal),
                                       ("weekOfMonth", components.weekOfMonth), ("weekOfYear", components.weekOfYear),
                                       ("yearForWeekOfYear", components.yearForWeekOfYear)]
        return names.compactMap { name, value in value.map { "\(name)=\($0)" } }.joined(separator: ",")
    }

    /// The names of the set units, `day,weekOfMonth`: the key of the per-set figures.
    static func shapeKey(_ components: DateComponents) -> String {
        text(components).split(separator: ",").map { $0.split(separator: "=")[0] }.joined(separator: ",")
    }

    static func text(_ date: Date?) -> String {
        date.map { String($0.timeIntervalSince1970) } ?? "nil"
    }
}
