/// A local day and its calendar fields, kept up to date as it steps: the
/// day-by-day shortcuts of the search (`CalendarSearch+DayWalk`) read a
/// weekday, an ordinal or a day of the month at every step, and carrying the
/// fields along costs a few additions where converting each day number again
/// costs a dozen divisions.
struct DayCursor {
    private(set) var dayNumber: Int
    private(set) var year: Int
    private(set) var month: Int
    /// The day of the month, 1…31.
    private(set) var day: Int
    /// 1 = Sunday … 7 = Saturday.
    private(set) var weekday: Int
    /// The number of days of this day's month.
    private(set) var monthLength: Int

    @inline(__always)
    init(dayNumber: Int) {
        self.dayNumber = dayNumber
        (year, month, day, weekday, monthLength) = CivilYear.fields(ofDay: dayNumber)
    }

    /// The 1st of a month whose fields the caller has (a walk over months
    /// that reads their 1sts alone): no conversion of the day number.
    @inline(__always)
    init(firstOfMonth dayNumber: Int, year: Int, month: Int, weekday: Int, monthLength: Int) {
        (self.dayNumber, self.year, self.month, day, self.weekday, self.monthLength) = (dayNumber, year, month, 1, weekday, monthLength)
    }

    /// The 1st of `month` (1…12) in `year`.
    @inline(__always)
    init(year: Int, month: Int) {
        let first = CivilYear.firstOfMonth(year: year, month: month)
        self.init(firstOfMonth: first, year: year, month: month, weekday: CivilDate.weekday(ofDays: first),
                  monthLength: CivilDate.daysInMonth(year: year, month: month))
    }

    /// The 1st of the next month numbered `month` (1…12), or this day when
    /// it lies in that month: where a walk month by month to `month` stops.
    @inline(__always)
    mutating func advance(toMonth month: Int) {
        guard self.month != month else { return }
        self = DayCursor(year: month > self.month ? year : year + 1, month: month)
    }

    /// The next day.
    @inline(__always)
    mutating func step() {
        guard day == monthLength else {
            dayNumber += 1
            day += 1
            weekday = weekday == 7 ? 1 : weekday + 1
            return
        }
        stepToNextMonth()
    }

    /// `days` days later within the same month (the caller stays within it).
    @inline(__always)
    mutating func step(withinMonth days: Int) {
        dayNumber += days
        day += days
        weekday = (weekday - 1 + days) % 7 + 1
    }

    /// `days` days later (days ≥ 0), month by month rather than day by day
    /// (past two months, by converting the day number again).
    @inline(__always)
    mutating func advance(days: Int) {
        guard days <= 62 else {
            self = DayCursor(dayNumber: dayNumber + days)
            return
        }
        var left = days
        while day + left > monthLength {
            left -= monthLength - day + 1
            stepToNextMonth()
        }
        step(withinMonth: left)
    }

    /// The 1st of the next month.
    @inline(__always)
    mutating func stepToNextMonth() {
        let days = monthLength - day + 1
        dayNumber += days
        weekday = (weekday - 1 + days) % 7 + 1
        day = 1
        if month == 12 {
            month = 1
            year += 1
        } else {
            month += 1
        }
        monthLength = CivilDate.daysInMonth(year: year, month: month)
    }

    /// The how-many-th such weekday of the month: days 1–7 are 1, 8–14 are 2…
    var weekdayOrdinal: Int { (day - 1) / 7 + 1 }

    /// The weekday of the 1st of this day's month.
    var firstWeekday: Int { (weekday - 1 - (day - 1) % 7 + 7) % 7 + 1 }

    /// Weeks start on Sunday; the week holding the 1st is week 1.
    var weekOfMonth: Int { (day + firstWeekday - 2) / 7 + 1 }

    /// The number of weeks of this day's month (the week of month of its last day).
    var weeksInMonth: Int { (monthLength + firstWeekday - 2) / 7 + 1 }

    /// Moves to the first later day of weekday ordinal `ordinal` (1…5), as the
    /// day-by-day walk lands on it: the ordinal's first day, in this month
    /// when it is still ahead, else in the next month long enough to have it
    /// (a fifth needs a 29th). From a day not of that ordinal.
    mutating func advance(toWeekdayOrdinal ordinal: Int) {
        let firstWithOrdinal = 7 * (ordinal - 1) + 1
        if !(day < firstWithOrdinal && firstWithOrdinal <= monthLength) {
            repeat { stepToNextMonth() } while monthLength < firstWithOrdinal
        }
        step(withinMonth: firstWithOrdinal - day)
    }

    /// Moves to the first later day with `weekday` (1…7) and weekday ordinal
    /// `ordinal` (1…5), month by month. False, the cursor left on the 1st of
    /// a month, once the 1st of a month it passes to lies more than `limit`
    /// days after day `origin`.
    ///
    /// The ordinal's first day, the `7 × (ordinal − 1) + 1`th, falls on the
    /// 1st's weekday, so the day sought is that many days on plus the days
    /// from the 1st's weekday to `weekday`; each month's 1st falls its
    /// predecessor's length (28 to 31 days) later in the week. No division
    /// per month: the walks to a fifth weekday take a few months at every
    /// step of searches such as `{day: 27, weekday: 6, weekdayOrdinal: 5,
    /// weekOfYear: 18}`, and their remainders were a fifth of its time.
    mutating func advance(toWeekday weekday: Int, ordinal: Int, within limit: Int, of origin: Int) -> Bool {
        let firstWithOrdinal = 7 * (ordinal - 1) + 1
        var first = firstWeekday
        var both = firstWithOrdinal + Self.daysFrom(first, to: weekday)
        if both > day && both <= monthLength {
            step(withinMonth: both - day)
            return true
        }
        var firstDay = dayNumber - day + 1
        while true {
            firstDay += monthLength
            first += monthLength - 28
            if first > 7 { first -= 7 }
            (year, month) = month == 12 ? (year + 1, 1) : (year, month + 1)
            monthLength = CivilDate.daysInMonth(year: year, month: month)
            guard firstDay - origin <= limit else {
                (dayNumber, day, self.weekday) = (firstDay, 1, first)
                return false
            }
            both = firstWithOrdinal + Self.daysFrom(first, to: weekday)
            if both <= monthLength {
                (dayNumber, day, self.weekday) = (firstDay + both - 1, both, weekday)
                return true
            }
        }
    }

    /// Days from weekday `from` on to the next `to` (0…6; both 1…7).
    @inline(__always)
    private static func daysFrom(_ from: Int, to: Int) -> Int {
        let days = to - from
        return days < 0 ? days + 7 : days
    }

    /// Moves as Foundation's walk to day `day` of a month moves (from a day
    /// not numbered `day`): day by day to the next day so numbered, except
    /// that the walk stops on the day before a month two or more away in
    /// number, which is the next month's last day when that month lacks the
    /// day, or this month's last when this is December (January is eleven away).
    mutating func advance(toDayOfMonth day: Int) {
        if self.day < day && day <= monthLength {
            step(withinMonth: day - self.day)
            return
        }
        var next = self
        next.stepToNextMonth()
        if abs(next.month - month) >= 2 {
            step(withinMonth: monthLength - self.day)
        } else {
            next.step(withinMonth: (day >= 1 && day <= next.monthLength ? day : next.monthLength) - 1)
            self = next
        }
    }

    /// The value of a unit read off the day alone (nil for the others).
    @inline(__always)
    func value(of unit: CalendarUnit) -> Int? {
        switch unit {
        case .year: return year
        case .month: return month
        case .day: return day
        case .weekday: return weekday
        case .weekdayOrdinal: return weekdayOrdinal
        case .weekOfMonth: return weekOfMonth
        default: return nil
        }
    }
}
