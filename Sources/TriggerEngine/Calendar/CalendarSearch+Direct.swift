/// The answer for the shapes most triggers have, computed directly instead of
/// by Foundation's steps, where the steps provably land on it: from a start in
/// the quiet part of the query's constant-offset span (see
/// `CalendarSearch+QuietSteps`), with an offset of whole minutes.
///
/// There no local time is skipped or repeated, so Foundation's search, for a
/// pattern whose units below the highest one set are only hour, minute and
/// second, finds the first local date-time strictly after the start that has
/// the set values and 0 in the unset time units below the highest one
/// (`{hour: 7}` is 07:00:00, `{day: 5, minute: 30}` 00:30:00 on the 5th):
///
/// - hour first, maybe with weekday: `{hour, minute?, second?, weekday?}`;
/// - minute first: `{minute, second?}`, once an hour; `{second}`, once a minute;
/// - day first: `{day ≤ 28, hour?, minute?, second?}`, once a month (days
///   29–31 are missing from some months, where Foundation approximates);
/// - month first: `{month, day ≤ 28 or none (the 1st), hour?, minute?, second?}`, once a year;
/// - `{weekday}` alone, and the nth weekday `{hour, minute?, second?, weekday,
///   weekdayOrdinal}` (Foundation's first step on days, its 1 March quirk included).
///
/// An answer past the quiet span (a weekly, monthly or yearly one beyond a DST
/// change) stands when every transition on the way leaves local midnight
/// alone and the answer's day is quiet in its own span
/// (`ZoneCalendar.instantAcrossClearTransitions`). Anything else returns nil
/// and the search takes its steps. The differential tests against Foundation
/// cover these shapes in thirteen zones, across transitions and aimed at them.
extension CalendarSearch {
    private static let hourFirst = mask(.hour, .minute, .second, .weekday)
    private static let minuteFirst = mask(.minute, .second)
    private static let dayFirst = mask(.day, .hour, .minute, .second)
    private static let monthFirst = mask(.month, .day, .hour, .minute, .second)
    private static let nthWeekday = mask(.hour, .minute, .second, .weekday, .weekdayOrdinal)

    private static func mask(_ units: CalendarUnit...) -> UInt16 {
        units.reduce(0) { $0 | CalendarUnitSet($1).rawValue }
    }

    /// The next match strictly after `start` for the shapes above, or nil.
    func directNext(after start: Double) -> Double? {
        let set = pattern.set
        let bits = set.rawValue
        let whole = Int(start.rounded(.down))
        guard let offset = calendar.quietOffset(from: whole, to: whole), offset % 60 == 0 else { return nil }
        let local = whole + offset
        let (today, _) = CivilDate.floorDivide(local, 86_400)
        let timeOfDay = (pattern[.hour] ?? 0) * 3600 + (pattern[.minute] ?? 0) * 60 + (pattern[.second] ?? 0)
        // Whether the wall time `wall` is strictly after the start.
        func isAfterStart(_ wall: Int) -> Bool { Double(wall - offset) > start }
        let result: Int
        if let weekday = pattern[.weekday], let ordinal = pattern[.weekdayOrdinal], set.contains(.hour),
           bits & ~Self.nthWeekday == 0 {
            // Foundation's first step, on days (`matchWeekdayOrdinal`, then the
            // weekday, then the time). Today outside the ordinal's week of the
            // month: the next ordinal-th weekday. Today inside it: the next such
            // weekday; when that one has another ordinal, the step bails to the
            // next month, or, when it lies in February, answers 1 March 00:00
            // (the approximation for a day February lacks).
            let (year, month, dayOfMonth) = CivilDate.date(fromDays: today)
            let todayWeekday = CivilDate.weekday(ofDays: today)
            if (dayOfMonth - 1) / 7 + 1 != ordinal {
                guard let day = Self.nthWeekday(weekday, ordinal, onOrAfter: today) else { return nil }
                result = day * 86_400 + timeOfDay
            } else if todayWeekday == weekday {
                guard isAfterStart(today * 86_400 + timeOfDay) else { return nil }
                result = today * 86_400 + timeOfDay
            } else {
                let candidate = today + (weekday - todayWeekday + 7) % 7
                let (candidateYear, candidateMonth, candidateDay) = CivilDate.date(fromDays: candidate)
                if (candidateDay - 1) / 7 + 1 == ordinal {
                    result = candidate * 86_400 + timeOfDay
                } else {
                    // The step read the candidate's time: it must be plain too.
                    guard directInstant(ofLocal: candidate * 86_400 + timeOfDay, offset: offset, today: today) != nil else { return nil }
                    if candidateMonth == 2 {
                        result = CivilDate.days(year: candidateYear, month: 3, day: 1) * 86_400
                    } else {
                        let nextMonth = month == 12 ? CivilDate.days(year: year + 1, month: 1, day: 1)
                                                    : CivilDate.days(year: year, month: month + 1, day: 1)
                        guard let day = Self.nthWeekday(weekday, ordinal, onOrAfter: nextMonth) else { return nil }
                        result = day * 86_400 + timeOfDay
                    }
                }
            }
        } else if set.contains(.hour), bits & ~Self.hourFirst == 0 {
            var day = today
            if let weekday = pattern[.weekday] { day += (weekday - CivilDate.weekday(ofDays: today) + 7) % 7 }
            if !isAfterStart(day * 86_400 + timeOfDay) { day += pattern[.weekday] == nil ? 1 : 7 }
            result = day * 86_400 + timeOfDay
        } else if set.contains(.minute), bits & ~Self.minuteFirst == 0 {
            let hourStart = local - CivilDate.floorDivide(local, 3600).remainder
            result = isAfterStart(hourStart + timeOfDay) ? hourStart + timeOfDay : hourStart + 3600 + timeOfDay
        } else if let second = pattern[.second], bits == CalendarUnitSet(.second).rawValue {
            // The second alone: once a minute (minutes are cut in UTC, and the
            // offset is whole minutes); a match at the start itself, or at its
            // whole second when it has a fraction, is rejected for the next minute's.
            let minuteStart = local - CivilDate.floorDivide(local, 60).remainder
            result = isAfterStart(minuteStart + second) ? minuteStart + second : minuteStart + 60 + second
        } else if let weekday = pattern[.weekday], bits == CalendarUnitSet(.weekday).rawValue {
            // The weekday alone: its next day at 00:00; today's match is the
            // start itself, which the search rejects and leaves for next week's.
            let ahead = (weekday - CivilDate.weekday(ofDays: today) + 7) % 7
            result = (today + (ahead == 0 ? 7 : ahead)) * 86_400
        } else if set.contains(.month) || set.contains(.day), bits & ~Self.monthFirst == 0, (pattern[.day] ?? 1) <= 28 {
            // Without a day, a month-first search lands on the 1st: the year is
            // pinned by the 1st's time, and a later day of the month only
            // matches the start itself or approximates, both rejected.
            let day = pattern[.day] ?? 1
            let (year, month, _) = CivilDate.date(fromDays: today)
            if let wanted = pattern[.month] {
                let candidate = CivilDate.days(year: year, month: wanted, day: day) * 86_400 + timeOfDay
                result = isAfterStart(candidate) ? candidate : CivilDate.days(year: year + 1, month: wanted, day: day) * 86_400 + timeOfDay
            } else {
                guard bits & ~Self.dayFirst == 0 else { return nil }
                let candidate = CivilDate.days(year: year, month: month, day: day) * 86_400 + timeOfDay
                let (nextYear, nextMonth) = month == 12 ? (year + 1, 1) : (year, month + 1)
                result = isAfterStart(candidate) ? candidate
                                                 : CivilDate.days(year: nextYear, month: nextMonth, day: day) * 86_400 + timeOfDay
            }
        } else {
            return nil
        }
        return directInstant(ofLocal: result, offset: offset, today: today).map(Double.init)
    }

    /// The instant of the wall time `wall` a direct answer found from a start
    /// on local day `today` with offset `offset`: in the quiet span, or past it
    /// (a weekly, monthly or yearly answer beyond a DST change) when the
    /// transitions on the way leave the search's steps alone; else nil.
    private func directInstant(ofLocal wall: Int, offset: Int, today: Int) -> Int? {
        if calendar.quietOffset(from: today * 86_400 - offset, to: wall - offset) != nil { return wall - offset }
        return calendar.instantAcrossClearTransitions(ofLocal: wall, startDay: today)
    }

    /// The first day (day number) from `from` on that is the `ordinal`-th
    /// `weekday` of its month.
    private static func nthWeekday(_ weekday: Int, _ ordinal: Int, onOrAfter from: Int) -> Int? {
        var (year, month, _) = CivilDate.date(fromDays: from)
        for _ in 0..<15 {
            let first = CivilDate.days(year: year, month: month, day: 1)
            let dayOfMonth = 1 + (weekday - CivilDate.weekday(ofDays: first) + 7) % 7 + (ordinal - 1) * 7
            if dayOfMonth <= CivilDate.daysInMonth(year: year, month: month), first + dayOfMonth - 1 >= from {
                return first + dayOfMonth - 1
            }
            (year, month) = month == 12 ? (year + 1, 1) : (year, month + 1)
        }
        return nil
    }
}
