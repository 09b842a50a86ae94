/// Shortcuts for the search's day-by-day loops anywhere in time, not only in
/// the quiet part of the query's constant-offset span.
///
/// The loops step from the start of one day (or week, or month) to the start
/// of the next with `ZoneCalendar.interval(of:containing:)`, which reads the
/// zone's offsets several times per step. A search for a rare match (the
/// fifth Sunday on the 13th, week 53 on the 16th) runs its loops a hundred
/// times, years away from its start and across many daylight-saving changes,
/// and those loops were most of its time. Across transitions that leave local
/// midnight alone (`ZoneRules.Transition.leavesMidnightAlone`: both sides of
/// the change on one local day, an hour or more from midnight) every day
/// starts at 00:00 and every step lands on 00:00 of the next day, week or
/// month. So the landing days are found on day numbers alone (`DayCursor`),
/// and the one the loop stops on is taken through `midnight(ofDay:)`, as the
/// loop takes it. Where a transition on the way touches midnight or drops a
/// day (Santiago, Havana, Apia 2011) the shortcut answers nil and the loop
/// walks as before.
extension CalendarSearch {
    /// Days a shortcut looks through before it gives the walk back (the loops
    /// it replaces stop within about three months).
    static let dayWalkLimit = 800

    /// `advance(from:by:until:is:)` for steps of a day or a month and a unit
    /// read off the day (weekday, weekday ordinal, day, month).
    ///
    /// Day by day to a weekday or a weekday ordinal, the landing day is
    /// computed rather than walked to (a walk to a fifth ordinal passed a
    /// month or two of days, a step of the rare sets a dozen such walks);
    /// `DayWalkTests` holds both to the loop.
    func clearAdvance(from start: Double, by period: CalendarUnit, until unit: CalendarUnit, is value: Int) -> Double? {
        guard period == .day || period == .month else { return nil }
        let startDay = calendar.dayNumber(at: start)
        var cursor = DayCursor(dayNumber: startDay)
        guard let current = cursor.value(of: unit) else { return nil }
        if current == value { return start }
        if period == .day && unit == .weekday {
            // A value no day shows is never reached: the loop gives up.
            guard (1...7).contains(value) else { return nil }
            return clearMidnight(ofDay: startDay + (value - current + 7) % 7, after: startDay)
        }
        if period == .day && unit == .weekdayOrdinal {
            guard (1...5).contains(value) else { return nil }
            cursor.advance(toWeekdayOrdinal: value)
            guard cursor.dayNumber - startDay <= Self.dayWalkLimit else { return nil }
            return clearMidnight(ofDay: cursor.dayNumber, after: startDay)
        }
        for _ in 0..<Self.dayWalkLimit {
            if period == .day { cursor.step() } else { cursor.stepToNextMonth() }
            if cursor.value(of: unit) == value { return clearMidnight(ofDay: cursor.dayNumber, after: startDay) }
        }
        return nil
    }

    /// `matchDay(from:_:)`: day by day to `target`, stopping on the last day
    /// before a month two months away (Foundation's bound), computed a month
    /// at a time (`DayCursor.advance(toDayOfMonth:)`).
    func clearMatchDay(from start: Double, _ target: Int) -> Double? {
        let startDay = calendar.dayNumber(at: start)
        var cursor = DayCursor(dayNumber: startDay)
        if cursor.day != target { cursor.advance(toDayOfMonth: target) }
        return clearMidnight(ofDay: cursor.dayNumber, after: startDay)
    }

    /// The second loop of `matchWeekdayOrdinal`: day by day from `start` to
    /// the first later day with `weekday` and `ordinal`. (Where that loop
    /// starts, the day of `start` never shows both: the search would have
    /// stopped on it before.)
    ///
    /// The day is found month by month (`DayCursor.advance(toWeekday:ordinal:within:of:)`),
    /// not walked to: within the loop's 800 days, or nil as the loop gives up.
    func clearWeekdayWithOrdinal(after start: Double, weekday: Int, ordinal: Int) -> Double? {
        guard (1...7).contains(weekday), (1...5).contains(ordinal) else { return nil }
        let startDay = calendar.dayNumber(at: start)
        var cursor = DayCursor(dayNumber: startDay)
        guard cursor.advance(toWeekday: weekday, ordinal: ordinal, within: Self.dayWalkLimit, of: startDay),
              cursor.dayNumber - startDay <= Self.dayWalkLimit else { return nil }
        return clearMidnight(ofDay: cursor.dayNumber, after: startDay)
    }

    /// `matchWeekOfMonth(from:_:)`: week by week, except that week 1 of the
    /// next month is reached day by day from the last week of this one. The
    /// landing is the one the steps on days compute (`walk(toWeekOfMonth:from:walkStart:)`,
    /// a month at a time), within their 800 days; nil for a week no month has.
    func clearWeekOfMonth(from start: Double, _ week: Int) -> Double? {
        guard (1...6).contains(week) else { return nil }
        let startDay = calendar.dayNumber(at: start)
        let cursor = DayCursor(dayNumber: startDay)
        if cursor.weekOfMonth == week { return start }
        guard let reached = Self.walk(toWeekOfMonth: week, from: cursor, walkStart: startDay) else { return nil }
        return clearMidnight(ofDay: reached.dayNumber, after: startDay)
    }

    /// 00:00 of local day `day`, reached by a walk from `startDay`, when
    /// every transition from the day before `startDay` to the day after `day`
    /// leaves midnight alone (the walk then behaves as on a fixed offset); else nil.
    private func clearMidnight(ofDay day: Int, after startDay: Int) -> Double? {
        // Day numbers as UTC seconds, widened by two days to cover any offset.
        guard calendar.transitionsLeaveMidnightAlone(from: (startDay - 2) * 86_400, through: (day + 3) * 86_400) else { return nil }
        let instant = calendar.midnight(ofDay: day)
        return calendar.localSeconds(instant) == day * 86_400 ? instant : nil
    }
}
