/// The dispatcher's invariants, checked after every change in debug builds
/// (as swift-collections checks its `Heap`), in full while the queue is small
/// enough for an O(n) check per change not to change the complexity of tests.
extension Dispatcher {
    /// Debug builds check in full up to this many slots; larger queues are
    /// checked by tests calling `checkInvariants()` themselves.
    static let fullCheckLimit = 2_048

    @inline(__always)
    func checkInvariantsInDebugBuilds() {
        #if DEBUG
        if requests.count <= Self.fullCheckLimit { checkInvariants() }
        #endif
    }

    /// Traps when the slot arrays, the identifier index, the free list, the
    /// stale count and the heap disagree.
    /// - Complexity: O(n).
    package func checkInvariants() {
        let slots = requests.count
        precondition([schedules.count, addedAt.count, orders.count, nextFires.count, generations.count]
            .allSatisfy { $0 == slots }, "slot arrays of different lengths")
        var free = [Bool](repeating: false, count: slots)
        for slot in freeSlots {
            precondition(!free[Int(slot)], "slot \(slot) free twice")
            free[Int(slot)] = true
            precondition(requests[Int(slot)] == nil && nextFires[Int(slot)] == .infinity, "free slot \(slot) in use")
        }
        precondition(slotByIdentifier.count + freeSlots.count == slots, "index and free list do not cover the slots")
        for (identifier, slot) in slotByIdentifier {
            precondition(!free[Int(slot)], "pending '\(identifier)' in a free slot")
            precondition(requests[Int(slot)]?.identifier == identifier, "slot \(slot) holds another request than '\(identifier)'")
        }
        for slot in dues.keys { precondition(requests[Int(slot)] != nil, "due instant kept for free slot \(slot)") }
        for slot in held.keys {
            precondition(requests[Int(slot)] != nil && nextFires[Int(slot)] == .infinity, "held slot \(slot) free or scheduled")
        }
        var liveEntries = 0
        var scheduled = 0
        for slot in 0..<slots where nextFires[slot].isFinite { scheduled += 1 }
        for entry in heap.unordered where isLive(entry) { liveEntries += 1 }
        precondition(liveEntries == scheduled, "\(scheduled) slots scheduled, \(liveEntries) live heap entries")
        precondition(heap.count - liveEntries == staleEntries,
                     "\(heap.count - liveEntries) stale heap entries, \(staleEntries) counted")
        precondition(staleEntries <= liveEntries, "stale entries outnumber live ones")
    }
}
