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
        var index = firstIndex(after: local)
        if index == transitionTimes.count {
            // Past the last transition: the next one is in the following cycle.
            guard coverageEnd != Int.max else { return nil }
            index = firstIndex(after: coverageEnd - Self.cycleSeconds - 1)
            guard index < transitionTimes.count else { return nil }
            shift += Self.cycleSeconds
        }
        return Transition(at: transitionTimes[index] + shift, offsetBefore: offsets[index], offsetAfter: offsets[index + 1])
    }

    private func firstIndex(after seconds: Int) -> Int {
        let times = transitionTimes
        // From the bucket's count, as `offset(atUTC:)` finds it: the binary
        // search took a tenth of the time of searches that follow their
        // steps on day numbers across transitions (`hasTransition(onDay:_:)`).
        if let first = times.first, seconds >= first {
            let bucket = (seconds - first) >> Self.bucketShift
            if bucket < bucketCount {
                var index = Int(indexes[bucket])
                while index < times.count && times[index] <= seconds { index += 1 }
                return index
            }
        }
        var low = 0, high = times.count
        while low < high {
            let middle = (low + high) >> 1
            if times[middle] <= seconds { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
