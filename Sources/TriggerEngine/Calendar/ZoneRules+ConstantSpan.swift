extension ZoneRules {
    /// The longest stretch of time around `seconds` (epoch seconds) over which the
    /// offset does not change: from the transition at or before it up to the next
    /// one (or the end of the table, where instants start folding back by
    /// 400-year cycles). Empty for an instant past the table's end.
    /// - Complexity: O(log t), no allocation.
    func constantSpan(containing seconds: Int) -> (start: Int, end: Int, offset: Int) {
        guard seconds < coverageEnd else { return (0, 0, 0) }
        // The number of transitions at or before `seconds`, as in `offset(atUTC:)`.
        var low = 0, high = transitionTimes.count
        while low < high {
            let middle = (low + high) >> 1
            if transitionTimes[middle] <= seconds { low = middle + 1 } else { high = middle }
        }
        let start = low == 0 ? Int.min : transitionTimes[low - 1]
        let end = low == transitionTimes.count ? coverageEnd : transitionTimes[low]
        return (start, end, offsets[low])
    }
}
