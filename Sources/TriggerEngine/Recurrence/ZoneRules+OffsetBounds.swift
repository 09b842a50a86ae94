extension ZoneRules {
    /// The smallest and largest offsets (seconds east of UTC) in force at any
    /// instant within `radius` seconds of `instant`.
    ///
    /// Recurrence search works in wall time and needs to know which wall times
    /// can map to instants near a given one: a wall time `w` maps to `w − offset`
    /// for an offset in force near that instant (RFC 5545 §3.3.5 shifts a wall
    /// time in a gap by the offset before the gap), so these bounds bracket it.
    /// - Complexity: O(log t) plus the transitions in the window (usually none).
    func offsetBounds(around instant: Int, radius: Int = 3 * 86_400) -> (lowest: Int, highest: Int) {
        let first = offset(atUTC: instant - radius)
        var bounds = (lowest: first, highest: first)
        for transition in transitions(between: instant - radius, and: instant + radius) {
            bounds.lowest = min(bounds.lowest, transition.offsetAfter)
            bounds.highest = max(bounds.highest, transition.offsetAfter)
        }
        return bounds
    }
}
