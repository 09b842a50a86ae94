extension ZoneRules {
    /// The first year from which the zone's offsets follow the kind of each
    /// year alone: for every year from it on, the transitions within the year
    /// (each at its wall-clock second of the year, with its new offset) and the
    /// offset at its start are the same as in every other such year that
    /// starts on the same weekday and is as long. `Int.min` for a zone that
    /// never changes offset; `Int.max` when no stretch of years up to the
    /// table's end does.
    ///
    /// Rules like "the first Sunday of April at 3:00" have that shape, so for
    /// most zones this is the year their current rules began (New York 2007,
    /// Sydney 2008); for a zone that stopped changing (Kolkata, 1945) it is the
    /// year after its last transition. Past the table's end instants fold back
    /// by 400-year cycles, over which every year keeps its kind, so what holds
    /// to the end holds forever. Read by the calendar search's memo of steps
    /// by kind of year (`CalendarSearch+YearKindMemo`).
    /// - Complexity: O(transitions + years of the table), once per zone.
    static func yearKindsStart(times: [Int], offsets: [Int], coverageEnd: Int) -> Int {
        guard let first = times.first, let last = times.last else { return Int.min }
        // Instants beyond ±500,000 years (a VTIMEZONE's absurd dates): no year counts.
        guard first > -(1 << 44), last < 1 << 44, coverageEnd > -(1 << 44) else { return Int.max }
        // Each transition's wall-clock year and second of the year, read on the
        // clock before it, grouped by year.
        var byYear: [Int: [(second: Int, offset: Int)]] = [:]
        for index in times.indices {
            let local = times[index] + offsets[index]
            let (day, second) = CivilDate.floorDivide(local, 86_400)
            let year = CivilDate.date(fromDays: day).year
            let januaryFirst = CivilDate.days(year: year, month: 1, day: 1)
            byYear[year, default: []].append(((day - januaryFirst) * 86_400 + second, offsets[index + 1]))
        }
        let firstYear = CivilDate.date(fromDays: CivilDate.floorDivide(first + offsets[0], 86_400).quotient).year
        let lastYear: Int
        if coverageEnd == Int.max {
            // After its last transition the zone keeps one offset forever: 28
            // years of that hold every kind of year.
            lastYear = CivilDate.date(fromDays: CivilDate.floorDivide(last + offsets[times.count], 86_400).quotient).year + 29
        } else {
            lastYear = CivilDate.date(fromDays: CivilDate.floorDivide(coverageEnd - 1, 86_400).quotient).year - 1
        }
        guard firstYear <= lastYear else { return Int.min }
        // A table over tens of thousands of years (a VTIMEZONE with absurd
        // dates) is not worth the walk: no year counts.
        guard lastYear - firstYear <= 20_000 else { return Int.max }
        // Past the table's end instants fold back into its last 400 years:
        // a year found inside them does not hold beyond the end.
        let foldYear = coverageEnd == Int.max ? Int.max
            : CivilDate.date(fromDays: CivilDate.floorDivide(coverageEnd - cycleSeconds, 86_400).quotient).year
        // Years from the last down, each against the latest year of its kind.
        var byKind: [Int: (start: Int, transitions: [(second: Int, offset: Int)])] = [:]
        var transitionIndex = times.count
        for year in stride(from: lastYear, through: firstYear - 1, by: -1) {
            let transitions = byYear[year] ?? []
            // The offset at the year's start: before its first transition, or
            // the one holding through it.
            let januaryFirst = CivilDate.days(year: year, month: 1, day: 1)
            while transitionIndex > 0 && times[transitionIndex - 1] + offsets[transitionIndex - 1] >= januaryFirst * 86_400 {
                transitionIndex -= 1
            }
            let start = offsets[transitionIndex]
            let kind = CivilDate.weekday(ofDays: januaryFirst) + (CivilDate.isLeapYear(year) ? 8 : 0)
            if let seen = byKind[kind] {
                guard seen.start == start, seen.transitions.elementsEqual(transitions, by: { $0 == $1 }) else {
                    return year + 1 <= foldYear ? year + 1 : Int.max
                }
            } else {
                byKind[kind] = (start, transitions)
            }
        }
        return Int.min
    }
}
