extension ZoneRules {
    /// The first transition strictly after `seconds` (epoch seconds), folding
    /// instants past the table's end by 400-year cycles as `offset(atUTC:)` does.
    /// - Complexity: a step or two from the bucket of `seconds` (O(log t) outside
    ///   the table's buckets), no allocation.
    func firstTransition(after seconds: Int) -> Transition? {
        var shift = 0
        var local = seconds
        if local >= coverageEnd {
            shift = ((local - coverageEnd) / Self.cycleSeconds + 1) * Self.cycleSeconds
            local -= shift
        }
        var index = transitionCount(atOrBefore: local)
        if index == transitionTimes.count {
            // Past the last transition: the next one is in the following cycle.
            guard coverageEnd != Int.max else { return nil }
            index = transitionCount(atOrBefore: coverageEnd - Self.cycleSeconds - 1)
            guard index < transitionTimes.count else { return nil }
            shift += Self.cycleSeconds
        }
        return Transition(at: transitionTimes[index] + shift, offsetBefore: offsets[index], offsetAfter: offsets[index + 1])
    }
}
