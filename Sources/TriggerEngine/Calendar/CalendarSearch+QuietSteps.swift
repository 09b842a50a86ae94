/// Shortcuts for the search's step-by-step loops, taken only where the whole
/// walk stays in the quiet part of one constant-offset span, three days or
/// more from either transition (`ZoneCalendar.steadyOffset(from:to:)`): the
/// query's own span, or any later one a search years from its start reaches.
///
/// There every period the loops step through is plain fixed-offset arithmetic:
/// a day runs from local midnight to local midnight, an hour from a whole local
/// hour to the next, a minute from a whole UTC minute to the next (Foundation
/// cuts minutes in UTC), a month from the 1st at 00:00 to the next 1st. So the
/// loop's landing points are computed on local seconds without a zone lookup,
/// and the answer is the loop's answer. Each shortcut returns nil, and the
/// caller walks as before, when any instant the walk would read (from the start
/// of the period holding its start to its end) lies outside the quiet part:
/// near a transition the loops keep Foundation's handling of gaps and repeats.
extension CalendarSearch {
    /// Periods a shortcut steps through before it gives the walk back (a day
    /// search covers at most two months, a month search a year).
    static let quietStepLimit = 800

    /// `advance(from:by:until:is:)` in the quiet span: the first period start
    /// (or `start` itself) where `unit` shows `value`.
    func quietAdvance(from start: Double, by period: CalendarUnit, until unit: CalendarUnit, is value: Int) -> Double? {
        let whole = Int(start.rounded(.down))
        guard let offset = calendar.steadyOffset(from: whole, to: whole) else { return nil }
        let local = whole + offset
        if ZoneCalendar.value(of: unit, localSeconds: local) == value { return start }
        let day = CivilDate.floorDivide(local, 86_400).quotient
        // The wall time the walk reads first (the start of the period holding
        // `start`) and the one it lands on after its first step.
        let periodStart: Int
        var position: Int
        switch period {
        case .second:
            periodStart = local
            position = local + 1
        case .minute:
            periodStart = local - CivilDate.floorDivide(whole, 60).remainder
            position = periodStart + 60
        case .day, .weekday, .weekdayOrdinal:
            periodStart = day * 86_400
            position = periodStart + 86_400
        case .weekOfMonth, .weekOfYear:
            periodStart = (day - (CivilDate.weekday(ofDays: day) - 1)) * 86_400
            position = periodStart + 7 * 86_400
        case .month:
            let (year, month, dayOfMonth) = CivilDate.date(fromDays: day)
            periodStart = (day - dayOfMonth + 1) * 86_400
            position = Self.firstOfNextMonth(year: year, month: month) * 86_400
        case .hour, .year, .yearForWeekOfYear:
            return nil
        }
        for _ in 0..<Self.quietStepLimit {
            if ZoneCalendar.value(of: unit, localSeconds: position) == value {
                guard calendar.steadyOffset(from: periodStart - offset, to: position - offset) != nil else { return nil }
                return Double(position - offset)
            }
            switch period {
            case .second: position += 1
            case .minute: position += 60
            case .weekOfMonth, .weekOfYear: position += 7 * 86_400
            case .month:
                let (year, month, _) = CivilDate.date(fromDays: position / 86_400)
                position = Self.firstOfNextMonth(year: year, month: month) * 86_400
            default: position += 86_400
            }
        }
        return nil
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

    @inline(__always)
    private static func firstOfNextMonth(year: Int, month: Int) -> Int {
        month == 12 ? CivilDate.days(year: year + 1, month: 1, day: 1) : CivilDate.days(year: year, month: month + 1, day: 1)
    }
}
