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
        let low = transitionCount(atOrBefore: seconds)
        let start = low == 0 ? Int.min : transitionTimes[low - 1]
        let end = low == transitionTimes.count ? coverageEnd : transitionTimes[low]
        return (start, end, offsets[low], low)
    }

    /// The number of the table's transitions at or before `seconds` (not
    /// folded), as `offset(atUTC:)` finds it.
    /// - Complexity: O(1) through the bucket index (O(log t) outside it).
    @inline(__always)
    func transitionCount(atOrBefore seconds: Int) -> Int {
        let times = transitionTimes
        var low = 0
        if let first = times.first, seconds >= first, (seconds - first) >> Self.bucketShift < bucketCount {
            low = Int(indexes[(seconds - first) >> Self.bucketShift])
            while low < times.count && times[low] <= seconds { low += 1 }
        } else {
            var high = times.count
            while low < high {
                let middle = (low + high) >> 1
                if times[middle] <= seconds { low = middle + 1 } else { high = middle }
            }
        }
        return low
    }

    /// Whether every transition in `from...through` (epoch seconds) leaves
    /// local midnight alone, from the table in two lookups; nil when the range
    /// reaches past the table's end, where instants fold by 400-year cycles.
    func transitionsLeaveMidnightAlone(from: Int, through: Int) -> Bool? {
        guard from <= through, through < coverageEnd else { return nil }
        let first = transitionCount(atOrBefore: from - 1), end = transitionCount(atOrBefore: through)
        return Int(indexes[bucketCount + first]) >= end
    }

    /// Whether every transition from `from` (epoch seconds) on, forever,
    /// leaves local midnight alone: the table's from there, and past its end
    /// the last 400-year cycle's, which instants there fold back to.
    /// - Complexity: two lookups.
    func transitionsLeaveMidnightAlone(from: Int) -> Bool {
        let first = coverageEnd == Int.max ? from : min(from, coverageEnd - Self.cycleSeconds)
        return Int(indexes[bucketCount + transitionCount(atOrBefore: first - 1)]) >= transitionTimes.count
    }
}
