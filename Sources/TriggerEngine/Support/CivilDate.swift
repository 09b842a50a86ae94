/// Proleptic Gregorian calendar arithmetic on day numbers, where day 0 is
/// 1970-01-01. These are the closed-form conversions of Howard Hinnant's
/// "chrono-compatible low-level date algorithms"; every zone-aware computation in
/// the library reduces to them plus an offset.
package enum CivilDate {
    /// The day number of year-month-day (month 1…12, day 1…31, not validated).
    @inline(__always)
    package static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The year, month and day of a day number.
    @inline(__always)
    package static func date(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Foundation's weekday of a day number: 1 = Sunday … 7 = Saturday.
    @inline(__always)
    package static func weekday(ofDays days: Int) -> Int {
        // 1970-01-01 was a Thursday (5).
        let index = (days + 4) % 7
        return (index < 0 ? index + 7 : index) + 1
    }

    /// Whether `year` is a Gregorian leap year.
    @inline(__always)
    package static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The number of days in `month` of `year`.
    @inline(__always)
    package static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Floor division, for splitting epoch seconds into days and seconds of day.
    @inline(__always)
    package static func floorDivide(_ a: Int, _ b: Int) -> (quotient: Int, remainder: Int) {
        let q = a / b
        let r = a - q * b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }
}
