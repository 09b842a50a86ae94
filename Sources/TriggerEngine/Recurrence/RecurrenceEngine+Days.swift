/// Which days of a period are instances: the day-level BY-parts (BYMONTH,
/// BYWEEKNO, BYYEARDAY, BYMONTHDAY, BYDAY).
///
/// Within one period, every day-level part expands or limits to the same set:
/// the days that satisfy all of them (the RFC's "expand" makes each part
/// enumerate its days within the period, and applying several intersects them).
/// So each period is expanded from the most selective part present and the
/// candidates are filtered by `dayMatches`, which checks all of them.
extension RecurrenceEngine {
    /// Whether day `day` (days since 1970-01-01) satisfies every day-level part.
    func dayMatches(_ day: Int) -> Bool {
        let (year, month, dayOfMonth) = CivilDate.date(fromDays: day)
        return dayMatches(day, year: year, month: month, dayOfMonth: dayOfMonth)
    }

    func dayMatches(_ day: Int, year: Int, month: Int, dayOfMonth: Int) -> Bool {
        if monthMask != 0, monthMask & (1 << month) == 0 { return false }
        let monthLength = CivilDate.daysInMonth(year: year, month: month)
        // RFC 5545 §3.3.10: BYMONTHDAY=-1 is the last day of the month.
        if !monthDays.isEmpty,
           monthDayMask & (1 << dayOfMonth) == 0,
           negativeMonthDayMask & (1 << (monthLength - dayOfMonth + 1)) == 0 { return false }
        if !yearDays.isEmpty || !nthWeekdays.isEmpty {
            let dayOfYear = day - CivilDate.days(year: year, month: 1, day: 1)  // 0-based
            let yearLength = Self.yearLength(year)
            // BYYEARDAY=-1 is the last day of the year.
            if !yearDays.isEmpty, !yearDays.contains(dayOfYear + 1), !yearDays.contains(dayOfYear - yearLength) {
                return false
            }
            if weekdayMask != 0 || !nthWeekdays.isEmpty {
                let weekday = Self.isoWeekday(day)
                if weekdayMask & (1 << weekday) == 0,
                   !nthWeekdays.contains(where: { nth in
                       guard nth.weekday == weekday else { return false }
                       // The n-th such weekday of the month (or year), counted from
                       // the start for n > 0 and from the end for n < 0.
                       let (index, length) = nthInMonth ? (dayOfMonth - 1, monthLength) : (dayOfYear, yearLength)
                       return nth.ordinal > 0 ? index / 7 + 1 == nth.ordinal : (length - 1 - index) / 7 + 1 == -nth.ordinal
                   }) { return false }
            }
        } else if weekdayMask != 0, weekdayMask & (1 << Self.isoWeekday(day)) == 0 {
            return false
        }
        if !weekNumbers.isEmpty, !weekNumberMatches(day) { return false }
        return true
    }

    /// The first day of the week (from WKST) that contains `day`.
    @inline(__always)
    func weekStartDay(containing day: Int) -> Int {
        day - Self.mod(Self.isoWeekday(day) - weekStart, 7)
    }

    /// The first day of week 1 of `weekYear`: RFC 5545 §3.3.10, "Week number one
    /// of the calendar year is the first week that contains at least four (4)
    /// days in that calendar year", weeks starting on WKST; that week holds January 4.
    @inline(__always)
    func firstWeekStart(of weekYear: Int) -> Int {
        weekStartDay(containing: CivilDate.days(year: weekYear, month: 1, day: 4))
    }

    /// Whether `day` lies in a listed week. A day's week number is counted in the
    /// year its week belongs to (a late-December day can be in week 1, an early
    /// January day in week 52 or 53 of the year before); negative numbers count
    /// back from that year's last week.
    func weekNumberMatches(_ day: Int) -> Bool {
        let weekStart = weekStartDay(containing: day)
        let weekYear = CivilDate.date(fromDays: weekStart + 3).year
        let first = firstWeekStart(of: weekYear)
        let number = (weekStart - first) / 7 + 1
        let weeks = (firstWeekStart(of: weekYear + 1) - first) / 7
        return weekNumbers.contains(number) || weekNumbers.contains(number - weeks - 1)
    }
}

// MARK: - Expanding a period's days

extension RecurrenceEngine {
    /// The matching days of YEARLY period `year`, MONTHLY period `monthIndex` or
    /// WEEKLY period starting on `weekStart`, ascending, without duplicates.
    func days(ofPeriodStartingAt periodStartDay: Int, into days: inout [Int]) {
        days.removeAll(keepingCapacity: true)
        switch frequency {
        case .yearly where weekYearPeriods: weekYearCandidates(Self.weekYear(ofDay: periodStartDay, weekStart: weekStart), into: &days)
        case .yearly: yearCandidates(CivilDate.date(fromDays: periodStartDay).year, into: &days)
        case .monthly:
            let (year, month, _) = CivilDate.date(fromDays: periodStartDay)
            monthCandidates(year: year, month: month, into: &days)
        case .weekly:
            for offset in 0..<7 where weekdayMask & (1 << Self.mod(weekStart + offset, 7)) != 0 {
                days.append(periodStartDay + offset)
            }
        default:
            days.append(periodStartDay)
        }
        // Candidates come from one part; every part filters them.
        days.removeAll { !dayMatches($0) }
        if days.count > 1 {
            days.sort()
            var last = Int.min
            days.removeAll { day in
                defer { last = day }
                return day == last
            }
        }
    }

    /// The days one part of a YEARLY rule names in `year` (a superset of the matches).
    private func yearCandidates(_ year: Int, into days: inout [Int]) {
        let first = CivilDate.days(year: year, month: 1, day: 1)
        let length = Self.yearLength(year)
        if !yearDays.isEmpty {
            for value in yearDays {
                let index = value > 0 ? value - 1 : length + value
                if index >= 0, index < length { days.append(first + index) }
            }
        } else if !monthDays.isEmpty {
            for month in (months.isEmpty ? Array(1...12) : months) {
                monthDayCandidates(year: year, month: month, into: &days)
            }
        } else if weekdayMask != 0 || !nthWeekdays.isEmpty {
            if nthInMonth {
                for month in months { weekdayCandidates(year: year, month: month, into: &days) }
            } else {
                weekdayCandidates(from: first, length: length, into: &days)
            }
        } else {
            for month in months {
                let monthFirst = CivilDate.days(year: year, month: month, day: 1)
                days.append(contentsOf: monthFirst..<(monthFirst + CivilDate.daysInMonth(year: year, month: month)))
            }
        }
    }

    /// The days of the listed weeks of week-numbering year `weekYear` (a
    /// superset of the matches; negative numbers count from its last week).
    private func weekYearCandidates(_ weekYear: Int, into days: inout [Int]) {
        let weekOne = firstWeekStart(of: weekYear)
        let weeks = (firstWeekStart(of: weekYear + 1) - weekOne) / 7
        for value in weekNumbers {
            let number = value > 0 ? value : weeks + 1 + value
            guard number >= 1, number <= weeks else { continue }
            let weekFirst = weekOne + (number - 1) * 7
            days.append(contentsOf: weekFirst..<(weekFirst + 7))
        }
    }

    private func monthCandidates(year: Int, month: Int, into days: inout [Int]) {
        if monthMask != 0, monthMask & (1 << month) == 0 { return }
        if !monthDays.isEmpty {
            monthDayCandidates(year: year, month: month, into: &days)
        } else if weekdayMask != 0 || !nthWeekdays.isEmpty {
            weekdayCandidates(year: year, month: month, into: &days)
        } else {
            let monthFirst = CivilDate.days(year: year, month: month, day: 1)
            days.append(contentsOf: monthFirst..<(monthFirst + CivilDate.daysInMonth(year: year, month: month)))
        }
    }

    /// BYMONTHDAY in one month; days the month does not have (30 in February,
    /// −31 in April) are skipped, as RFC 5545 §3.3.10 requires of invalid dates.
    private func monthDayCandidates(year: Int, month: Int, into days: inout [Int]) {
        let monthFirst = CivilDate.days(year: year, month: month, day: 1)
        let length = CivilDate.daysInMonth(year: year, month: month)
        for value in monthDays {
            let index = value > 0 ? value - 1 : length + value
            if index >= 0, index < length { days.append(monthFirst + index) }
        }
    }

    private func weekdayCandidates(year: Int, month: Int, into days: inout [Int]) {
        weekdayCandidates(from: CivilDate.days(year: year, month: month, day: 1),
                          length: CivilDate.daysInMonth(year: year, month: month), into: &days)
    }

    /// BYDAY within `length` days from `first`: every listed weekday, and the n-th
    /// (from the start or the end) of each ordinal one.
    private func weekdayCandidates(from first: Int, length: Int, into days: inout [Int]) {
        let firstWeekday = Self.isoWeekday(first)
        if weekdayMask != 0 {
            for weekday in 0..<7 where weekdayMask & (1 << weekday) != 0 {
                var day = first + Self.mod(weekday - firstWeekday, 7)
                while day < first + length {
                    days.append(day)
                    day += 7
                }
            }
        }
        for nth in nthWeekdays {
            let day: Int
            if nth.ordinal > 0 {
                day = first + Self.mod(nth.weekday - firstWeekday, 7) + (nth.ordinal - 1) * 7
            } else {
                let last = first + length - 1
                day = last - Self.mod(Self.isoWeekday(last) - nth.weekday, 7) + (nth.ordinal + 1) * 7
            }
            if day >= first, day < first + length { days.append(day) }
        }
    }
}
