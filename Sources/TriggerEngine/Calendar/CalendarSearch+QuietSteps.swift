/// Shortcuts for the search's loops by seconds, minutes and hours, taken only
/// where the walk stays inside one constant-offset span: the query's own, or
/// any later one a search years from its start reaches.
///
/// There every period the loops step through is plain fixed-offset arithmetic:
/// an hour runs from a whole local hour to the next, a minute from a whole UTC
/// minute to the next (Foundation cuts minutes in UTC). (Days, weeks and
/// months are the day walks', which also hold across transitions.) So the
/// loop's landing points are computed on local seconds without a zone lookup,
/// and the answer is the loop's answer. Each shortcut returns nil, and the
/// caller walks as before, when any instant the walk would read (from the start
/// of the period holding its start to its end) lies outside the span: across
/// a transition the loops keep Foundation's handling of gaps and repeats.
///
/// How close to a transition: the walks by seconds and minutes read nothing
/// but the offset at each instant they pass, so the span itself is enough
/// (`ZoneCalendar.constantOffset(from:to:)`), up to the transition's instant.
/// Until 30 Nov 2026 they too kept three days clear (`steadyOffset`), and a set
/// whose day lies near a transition (`{month: 4, day: 7, minute: 5, second:
/// 28, weekOfYear: 19}` in Sydney, whose clocks go back on the first Sunday of
/// April) walked sixty minutes and sixty seconds at every match. The hour's
/// walk reads the start of its day, day arithmetic that may look a day
/// back: it keeps the three days (`ZoneCalendar.steadyOffset(from:to:)`).
extension CalendarSearch {
    /// `advance(from:by:until:is:)` in the quiet span, for the search's two
    /// walks there: seconds by seconds and minutes by minutes to a value
    /// (nil for other periods and units). The first period start (or `start`
    /// itself) where `unit` shows `value`.
    ///
    /// Each period the value goes up by one, mod 60, so the landing is
    /// computed rather than walked to: the walk took up to sixty periods,
    /// a division each, at every step of a long search for a set with a
    /// minute or a second. `DayWalkTests` holds it to the loop (`walk`).
    func quietAdvance(from start: Double, by period: CalendarUnit, until unit: CalendarUnit, is value: Int) -> Double? {
        guard unit == period, period == .second || period == .minute else { return nil }
        let whole = Int(start.rounded(.down))
        guard let offset = calendar.constantOffset(from: whole, to: whole) else { return nil }
        let local = whole + offset
        if ZoneCalendar.value(of: unit, localSeconds: local) == value { return start }
        // A value no second or minute shows is never reached: the walk's business.
        guard (0..<60).contains(value) else { return nil }
        // The wall time the walk reads first (the start of the period holding
        // `start`) and the one it lands on after its first step; Foundation
        // cuts minutes in UTC, so with an offset of seconds a minute starts
        // mid-minute in wall time.
        let periodStart = period == .second ? local : local - CivilDate.floorDivide(whole, 60).remainder
        let length = period == .second ? 1 : 60
        let first = periodStart + length
        let landing = first + (value - ZoneCalendar.value(of: unit, localSeconds: first) + 60) % 60 * length
        guard calendar.constantOffset(from: periodStart - offset, to: landing - offset) != nil else { return nil }
        return Double(landing - offset)
    }

    /// `matchHour(from:_:)` in the quiet span: no hour is skipped there and
    /// every day starts at 00:00, so the answer is the next whole local hour
    /// showing `hour` (or the start of the current one).
    func quietMatchHour(from start: Double, _ hour: Int) -> Double? {
        let whole = Int(start.rounded(.down))
        guard let offset = calendar.steadyOffset(from: whole, to: whole) else { return nil }
        let (day, secondOfDay) = CivilDate.floorDivide(whole + offset, 86_400)
        let current = secondOfDay / 3600
        let steps = current == hour ? 0 : (hour - current + 24) % 24
        let result = day * 86_400 + current * 3600 + steps * 3600 - offset
        guard calendar.steadyOffset(from: day * 86_400 - offset, to: result) != nil else { return nil }
        return Double(result)
    }
}
