/// Day-number arithmetic by whole years, for the steps a search follows on day
/// numbers (`CalendarSearch+StepsOnDays`): where a week-numbering year starts,
/// which year a day lies in, the fields of a cursor put on a day.
///
/// A step of a set with a week number makes a dozen such conversions. Through
/// `CivilDate`'s closed forms (any day, negative ones included) each is a dozen
/// multiplications with overflow checks; counted in days since 1 January of
/// year 1, the arithmetic is on non-negative numbers, a year is found from one
/// estimate (400 years are 146,097 days: the estimate is the year or the one
/// before), and a month from the day of the year and a table. The slowest
/// steps on days took 0.88× the time (the Benchmarks article, thirteenth
/// session). Days before year 1 fall back to `CivilDate`; `CivilYearTests`
/// holds every function to it.
enum CivilYear {
    /// The day number (days since 1970-01-01) of 1 January of year 1.
    private static let yearOneDay = -719_162

    /// Days before the 1st of each month and after the last, common years
    /// (first 13) then leap years. A literal, so laid out in the binary.
    private static let daysBeforeMonth: [Int16] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365,
                                                   0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366]

    /// Days from 1 January of year 1 to 1 January of year `years + 1` (years ≥ 0).
    @inline(__always)
    private static func daysBefore(years: Int) -> Int {
        let y = UInt(bitPattern: years)
        return Int(bitPattern: y &* 365 &+ y / 4 &- y / 100 &+ y / 400)
    }

    /// The day number of 1 January of `year`.
    @inline(__always)
    static func januaryFirst(_ year: Int) -> Int {
        guard year >= 1 && year <= 1_000_000 else { return CivilDate.days(year: year, month: 1, day: 1) }
        return daysBefore(years: year &- 1) &+ yearOneDay
    }

    /// The day number of the Sunday on or before 1 January of `year`: the first
    /// day of week 1 of that week-numbering year.
    @inline(__always)
    static func firstDayOfWeekYear(_ year: Int) -> Int {
        let january1 = januaryFirst(year)
        return january1 - (CivilDate.weekday(ofDays: january1) - 1)
    }

    /// The day number of the 1st of `month` (1…12) in `year`.
    @inline(__always)
    static func firstOfMonth(year: Int, month: Int) -> Int {
        guard year >= 1 && year <= 1_000_000 && (1...12).contains(month) else { return CivilDate.days(year: year, month: month, day: 1) }
        let row = CivilDate.isLeapYear(year) ? 13 : 0
        return daysBeforeMonth.withUnsafeBufferPointer { januaryFirst(year) &+ Int($0[row &+ month &- 1]) }
    }

    /// The year holding day `day` and the days since its 1 January, or nil
    /// before year 1 (or absurdly late).
    @inline(__always)
    static func yearAndDayOfYear(_ day: Int) -> (year: Int, dayOfYear: Int, leap: Bool)? {
        let sinceYearOne = day &- yearOneDay
        guard sinceYearOne >= 0 && sinceYearOne < 365_000_000 else { return nil }
        let count = UInt(bitPattern: sinceYearOne)
        var years = Int(bitPattern: count &* 400 / 146_097)
        var start = daysBefore(years: years)
        let next = daysBefore(years: years &+ 1)
        if sinceYearOne >= next {
            years &+= 1
            start = next
        }
        let year = years &+ 1
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return (year, sinceYearOne &- start, leap)
    }

    /// The year holding day `day`.
    @inline(__always)
    static func year(ofDay day: Int) -> Int {
        yearAndDayOfYear(day)?.year ?? CivilDate.date(fromDays: day).year
    }

    /// The year, month, day, weekday (1 = Sunday) and month length of day `day`.
    @inline(__always)
    static func fields(ofDay day: Int) -> (year: Int, month: Int, day: Int, weekday: Int, monthLength: Int) {
        let weekday = CivilDate.weekday(ofDays: day)
        guard let (year, dayOfYear, leap) = yearAndDayOfYear(day) else {
            let (year, month, dayOfMonth) = CivilDate.date(fromDays: day)
            return (year, month, dayOfMonth, weekday, CivilDate.daysInMonth(year: year, month: month))
        }
        return daysBeforeMonth.withUnsafeBufferPointer { table in
            let row = leap ? 13 : 0
            // A month is 28–31 days: dayOfYear / 32 is its index or the one before.
            var index = dayOfYear >> 5
            if dayOfYear >= Int(table[row &+ index &+ 1]) { index &+= 1 }
            let monthStart = Int(table[row &+ index])
            return (year, index &+ 1, dayOfYear &- monthStart &+ 1, weekday, Int(table[row &+ index &+ 1]) &- monthStart)
        }
    }
}
