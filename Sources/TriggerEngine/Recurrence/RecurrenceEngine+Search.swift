/// Finding instances: seek to the period that holds a wall time by index
/// arithmetic, expand it, apply BYSETPOS, and move on period by period,
/// skipping whole days, hours and minutes that a limiting part rules out.
extension RecurrenceEngine {
    // MARK: Periods

    /// The index (0 = DTSTART's period) of the period holding `wall`, for `wall` ≥ DTSTART.
    func periodIndex(containing wall: Int) -> Int {
        switch frequency {
        case .yearly where weekYearPeriods:
            let year = Self.weekYear(ofDay: Self.floorDiv(wall, 86_400), weekStart: weekStart)
            return Self.floorDiv(year - basePeriod, interval)
        case .yearly:
            return Self.floorDiv(LocalDateTime(localSeconds: wall).fields.year - basePeriod, interval)
        case .monthly:
            let fields = LocalDateTime(localSeconds: wall).fields
            return Self.floorDiv(fields.year * 12 + fields.month - 1 - basePeriod, interval)
        default:
            return Self.floorDiv(wall - basePeriod, interval * unitSeconds)
        }
    }

    /// The wall time (local seconds) at which period `index` begins.
    func periodStart(_ index: Int) -> Int {
        switch frequency {
        case .yearly where weekYearPeriods:
            return firstWeekStart(of: basePeriod + index * interval) * 86_400
        case .yearly:
            return CivilDate.days(year: basePeriod + index * interval, month: 1, day: 1) * 86_400
        case .monthly:
            let monthIndex = basePeriod + index * interval
            return CivilDate.days(year: Self.floorDiv(monthIndex, 12), month: Self.mod(monthIndex, 12) + 1, day: 1) * 86_400
        default:
            return basePeriod + index * interval * unitSeconds
        }
    }

    /// The first period (WEEKLY and shorter) that begins at or after `wall`.
    @inline(__always)
    private func firstPeriod(atOrAfter wall: Int) -> Int {
        let step = interval * unitSeconds
        return Self.floorDiv(wall - basePeriod + step - 1, step)
    }

    // MARK: Offsets within a day or period

    var offsetCount: Int { outerOffsets.count * middleOffsets.count * innerOffsets.count }

    /// The `index`-th offset of the sorted product outer × middle × inner.
    @inline(__always)
    func offset(at index: Int) -> Int {
        let inner = innerOffsets.count, middle = middleOffsets.count
        return outerOffsets[index / (inner * middle)] + middleOffsets[index / inner % middle] + innerOffsets[index % inner]
    }

    /// The first offset index whose offset is ≥ `value` (`offsetCount` if none).
    private func firstOffsetIndex(atOrAfter value: Int) -> Int {
        var low = 0, high = offsetCount
        while low < high {
            let middle = (low + high) >> 1
            if offset(at: middle) < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    // MARK: Search

    /// Finds the first period at or after `index` with an instance in [`lower`,
    /// `cut`], appends up to `limit` of its instances in that range (ascending) to
    /// `found`, and returns the period's index; `nil` when there is none before
    /// `cut` or within `searchLimit` steps.
    ///
    /// `lower` must be ≥ DTSTART and lie in period `index` or before it.
    func findPeriod(from index: Int, lower: Int, cut: Int, limit: Int = .max,
                    into found: inout [Int], scratch: inout [Int]) -> Int? {
        if neverMatches { return nil }
        var index = index
        var steps = 0
        while steps < Self.searchLimit {
            steps += 1
            let periodStart = periodStart(index)
            if periodStart > cut || periodStart >= Self.maximumWall { return nil }
            switch frequency {
            case .yearly, .weekly, .monthly:
                if frequency == .monthly, monthMask != 0,
                   monthMask & (1 << (Self.mod(basePeriod + index * interval, 12) + 1)) == 0 {
                    index += 1
                    continue
                }
                days(ofPeriodStartingAt: periodStart / 86_400, into: &scratch)
                for position in scratch.indices { scratch[position] *= 86_400 }
            default:
                // DAILY and shorter: the limiting parts decide whether the period
                // exists at all; when one fails, jump past what it rules out.
                let day = Self.floorDiv(periodStart, 86_400)
                if !dayMatches(day) {
                    guard let next = nextMatchingDay(after: day, steps: &steps) else { return nil }
                    index = firstPeriod(atOrAfter: next * 86_400)
                    continue
                }
                if frequency < .daily, let skipTo = timeLimitSkip(periodStart: periodStart, day: day) {
                    index = firstPeriod(atOrAfter: skipTo)
                    continue
                }
                scratch.removeAll(keepingCapacity: true)
                scratch.append(periodStart)
            }
            let before = found.count
            collect(bases: scratch, lower: lower, cut: cut, limit: limit, into: &found)
            if found.count > before { return index }
            index += 1
        }
        return nil
    }

    /// For HOURLY, MINUTELY and SECONDLY: the wall time to skip to when the
    /// period's own hour, minute or second is ruled out by BYHOUR, BYMINUTE or
    /// BYSECOND (the next allowed one, or the start of the next larger unit).
    private func timeLimitSkip(periodStart: Int, day: Int) -> Int? {
        let secondOfDay = periodStart - day * 86_400
        let hour = secondOfDay / 3600, minute = secondOfDay / 60 % 60, second = secondOfDay % 60
        if hourMask & (1 << hour) == 0 {
            let later = UInt64(hourMask) & (UInt64(0xFF_FFFF) << (hour + 1)) & 0xFF_FFFF
            return later != 0 ? day * 86_400 + later.trailingZeroBitCount * 3600 : (day + 1) * 86_400
        }
        let hourStart = day * 86_400 + hour * 3600
        if minuteMask & (1 << minute) == 0 {
            let later = minute < 59 ? minuteMask & (~0 << (minute + 1)) & (1 << 60 - 1) : 0
            return later != 0 ? hourStart + later.trailingZeroBitCount * 60 : hourStart + 3600
        }
        let minuteStart = hourStart + minute * 60
        if secondMask & (1 << second) == 0 {
            let later = second < 59 ? secondMask & (~0 << (second + 1)) & (1 << 60 - 1) : 0
            return later != 0 ? minuteStart + later.trailingZeroBitCount : minuteStart + 60
        }
        return nil
    }

    /// The first day after `day` that passes every day-level part, skipping
    /// months BYMONTH rules out whole.
    private func nextMatchingDay(after day: Int, steps: inout Int) -> Int? {
        var day = day + 1
        while steps < Self.searchLimit, day < Self.maximumWall / 86_400 {
            steps += 1
            let (year, month, dayOfMonth) = CivilDate.date(fromDays: day)
            if monthMask != 0, monthMask & (1 << month) == 0 {
                let later = monthMask & (UInt16(0x1FFE) << month) & 0x1FFE
                day = later != 0
                    ? CivilDate.days(year: year, month: later.trailingZeroBitCount, day: 1)
                    : CivilDate.days(year: year + 1, month: monthMask.trailingZeroBitCount, day: 1)
                continue
            }
            if dayMatches(day, year: year, month: month, dayOfMonth: dayOfMonth) { return day }
            day += 1
        }
        return nil
    }

    /// Appends the instances of one period that lie in [`lower`, `cut`]: each
    /// base (a day's midnight, or the start of a sub-daily period) plus each
    /// offset, or with BYSETPOS only the chosen positions of that sorted set
    /// (RFC 5545 §3.3.10: BYSETPOS counts "within the set of recurrence instances
    /// specified by the rule" in one period; negative counts from the end).
    private func collect(bases: [Int], lower: Int, cut: Int, limit: Int, into found: inout [Int]) {
        let count = offsetCount
        guard count > 0, !bases.isEmpty, limit > 0 else { return }
        let target = found.count &+ limit
        if setPositions.isEmpty {
            let lastOffset = offset(at: count - 1)
            for base in bases where base + lastOffset >= lower {
                var index = base >= lower ? 0 : firstOffsetIndex(atOrAfter: lower - base)
                while index < count {
                    let value = base + offset(at: index)
                    if value > cut { return }
                    found.append(value)
                    if found.count >= target { return }
                    index += 1
                }
            }
            return
        }
        let total = bases.count * count
        var chosen: [Int] = []
        chosen.reserveCapacity(setPositions.count)
        for position in setPositions {
            let index = position > 0 ? position - 1 : total + position
            guard index >= 0, index < total else { continue }
            chosen.append(bases[index / count] + offset(at: index % count))
        }
        chosen.sort()
        var previous = Int.min
        for value in chosen where value != previous {
            previous = value
            guard value >= lower else { continue }
            if value > cut || found.count >= target { return }
            found.append(value)
        }
    }

    // MARK: Conveniences

    /// The first instance at or after `lower` (and DTSTART), no later than `cut`.
    /// - Complexity: O(1) in the distance from DTSTART; one period expansion in
    ///   the common case, at most `searchLimit` steps.
    func firstInstance(atOrAfter lower: Int, cut: Int = .max) -> Int? {
        let lower = max(lower, start)
        guard lower <= cut else { return nil }
        var found: [Int] = []
        var scratch: [Int] = []
        guard findPeriod(from: periodIndex(containing: lower), lower: lower, cut: cut, limit: 1,
                         into: &found, scratch: &scratch) != nil else { return nil }
        return found.first
    }

    /// What walking `count` instances from DTSTART found.
    enum CountedEnd: Sendable, Hashable {
        /// The wall time of the COUNT-th instance, or of the last one when the
        /// rule has fewer.
        case last(Int)
        /// The rule has no instance at all.
        case empty
        /// The walk needed more than `countWalkLimit` periods.
        case tooLong
    }

    /// Periods holding instances that the COUNT walk may visit (so COUNT up to
    /// at least a million; each period's search is itself bounded by `searchLimit`).
    static let countWalkLimit = 1_000_000

    /// Walks from DTSTART to the `count`-th instance, period by period, counting
    /// each period's instances in bulk. Done once, when a trigger is made.
    /// - Complexity: O(periods up to that instance + count); at most `countWalkLimit` periods with instances.
    func countedEnd(_ count: Int) -> CountedEnd {
        var remaining = count
        var index = 0
        var last: Int?
        var found: [Int] = []
        var scratch: [Int] = []
        var periods = 0
        while remaining > 0 {
            found.removeAll(keepingCapacity: true)
            guard let period = findPeriod(from: index, lower: start, cut: .max, limit: remaining,
                                          into: &found, scratch: &scratch) else { break }
            periods += 1
            if periods > Self.countWalkLimit { return .tooLong }
            remaining -= found.count
            last = found.last
            index = period + 1
        }
        return last.map(CountedEnd.last) ?? .empty
    }
}
