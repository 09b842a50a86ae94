extension ZoneRules {
    /// Whether every offset in effect from `seconds` (epoch seconds) on,
    /// forever, is a whole number of minutes: the table's offsets from there,
    /// and past its end the last 400-year cycle's, which instants there fold
    /// back to. (Offsets of seconds are local mean times, before 1900 in
    /// most zones: Foundation cuts minutes in UTC, so with one the seconds a
    /// search walks to can carry it past the minute it asked for.)
    /// - Complexity: O(1): a bucket look-up against `wholeMinutesFrom`.
    func offsetsAreWholeMinutes(from seconds: Int) -> Bool {
        let first = coverageEnd == Int.max ? seconds : min(seconds, coverageEnd - Self.cycleSeconds)
        return transitionCount(atOrBefore: first) >= wholeMinutesFrom
    }
}
