extension ZoneRules {
    /// The longest stretch of time around `seconds` (epoch seconds) over which the
    /// offset does not change: from the transition at or before it up to the next
    /// one (or the end of the table, where instants start folding back by
    /// 400-year cycles), and `index`, the number of transitions at or before
    /// `seconds` (so `transitionTimes[index]` ends the span). Empty, with index
    /// -1, for an instant past the table's end.
    /// - Complexity: O(1) through the bucket index (O(log t) outside it), no allocation.
    func constantSpan(containing seconds: Int) -> (start: Int, end: Int, offset: Int, index: Int) {
        guard seconds < coverageEnd else { return (0, 0, 0, -1) }
        // The number of transitions at or before `seconds`, as in `offset(atUTC:)`.
        var low = 0
        if let first = transitionTimes.first, seconds >= first, (seconds - first) >> Self.bucketShift < bucketCounts.count {
            low = Int(bucketCounts[(seconds - first) >> Self.bucketShift])
            while low < transitionTimes.count && transitionTimes[low] <= seconds { low += 1 }
        } else {
            var high = transitionTimes.count
            while low < high {
                let middle = (low + high) >> 1
                if transitionTimes[middle] <= seconds { low = middle + 1 } else { high = middle }
            }
        }
        let start = low == 0 ? Int.min : transitionTimes[low - 1]
        let end = low == transitionTimes.count ? coverageEnd : transitionTimes[low]
        return (start, end, offsets[low], low)
    }
}
