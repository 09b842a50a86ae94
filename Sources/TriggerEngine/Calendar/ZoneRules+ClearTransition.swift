extension ZoneRules.Transition {
    /// Whether the change leaves local midnight alone: the wall times on both
    /// sides of it fall on one local day, an hour or more from midnight. Days
    /// then start at 00:00 on both sides and step from midnight to midnight,
    /// which is what the calendar search's shortcuts across transitions rely
    /// on (`ZoneCalendar.instantAcrossClearTransitions`, `CalendarSearch+WeekWalk`).
    var leavesMidnightAlone: Bool {
        let before = at + offsetBefore, after = at + offsetAfter
        let (lowDay, lowSecond) = CivilDate.floorDivide(min(before, after), 86_400)
        let (highDay, highSecond) = CivilDate.floorDivide(max(before, after), 86_400)
        return lowDay == highDay && lowSecond >= 3_600 && highSecond <= 82_800
    }
}
