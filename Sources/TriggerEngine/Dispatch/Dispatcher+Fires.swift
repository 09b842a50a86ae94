import Foundation

/// Taking fires off the queue: in one step (`advance`), or in two when the
/// hand-over can fail or take time (`dueFire`, then `commit` or `postpone`).
extension Dispatcher {
    /// A fire that is due but not yet taken: it stays first in the queue until
    /// it is committed or postponed, and goes stale if its request is removed or
    /// replaced meanwhile.
    package struct DueFire: Sendable {
        /// The request as it was when the fire came due.
        package var request: NotificationRequest
        /// The instant it was due (what its delivery ID is made of).
        package var due: Date
        /// The instant it fires at: `due`, the restart instant for a missed fire,
        /// or the retry instant of a postponed one.
        package var date: Date
        let slot: Int32
        let generation: UInt32
        let fire: Double
    }

    /// The earliest live fire due at or before `date`, without taking it.
    /// Moves `now` up to its fire instant.
    /// - Complexity: amortised O(log n) (stale entries are dropped on the way).
    package func dueFire(through date: Date) -> DueFire? {
        guard let (slot, fire) = popDue(through: date.timeIntervalSince1970) else { return nil }
        return DueFire(request: requests[Int(slot)]!, due: Date(timeIntervalSince1970: dues[slot] ?? fire),
                       date: Date(timeIntervalSince1970: fire), slot: slot, generation: generations[Int(slot)],
                       fire: fire)
    }

    /// Whether `fire` is still the request's next fire: its request was neither
    /// removed nor replaced, and the fire was neither committed nor postponed
    /// (a held fire is current until it is committed).
    package func isCurrent(_ fire: DueFire) -> Bool {
        if let held = held[fire.slot] { return held.fire == fire.fire && held.generation == fire.generation }
        return Int(fire.slot) < generations.count && generations[Int(fire.slot)] == fire.generation
            && nextFires[Int(fire.slot)] == fire.fire
    }

    /// Takes `fire` off the queue while its hand-over is being recorded: later
    /// `dueFire` calls go past it, the request stays pending until `commit`
    /// (or goes back on the queue with `release(held:)`).
    /// - Complexity: O(1); its heap entry becomes stale for good (the slot's
    ///   generation moves on; the `DueFire` stays current through `held`).
    package func hold(_ fire: DueFire) {
        guard isCurrent(fire), held[fire.slot] == nil else { return }
        held[fire.slot] = (fire.fire, fire.generation)
        nextFires[Int(fire.slot)] = .infinity
        generations[Int(fire.slot)] &+= 1
        staleEntries += 1
        compactIfStale()
        checkInvariantsInDebugBuilds()
    }

    /// Puts a held fire back on the queue, due as before (its record failed).
    package func unhold(_ fire: DueFire) {
        guard isCurrent(fire), held.removeValue(forKey: fire.slot) != nil else { return }
        schedule(slot: fire.slot, at: fire.fire)
        checkInvariantsInDebugBuilds()
    }

    /// Takes `fire` after it was handed over: a repeating request moves to its
    /// next fire (strictly after the instant it fired), anything else leaves.
    /// - Returns: the next fire, `nil` when the request is no longer pending
    ///   (also when `fire` is no longer current: nothing changes then).
    /// - Complexity: O(log n) plus one next-fire computation.
    @discardableResult
    package func commit(_ fire: DueFire) -> Date? {
        guard isCurrent(fire) else { return nil }
        // Held first: the fire may no longer be first on the heap (an earlier one
        // may have been added while it was handed over), so no heap surgery.
        hold(fire)
        held[fire.slot] = nil
        let index = Int(fire.slot)
        dues[fire.slot] = nil
        let schedule = schedules[index]
        var next: Double?
        if schedule.repeats { next = table.fire(schedule, after: fire.fire, addedAt: addedAt[index]) }
        if let next {
            self.schedule(slot: fire.slot, at: next)
        } else {
            release(slot: fire.slot, identifier: requests[index]!.identifier)
        }
        checkInvariantsInDebugBuilds()
        return next.map { Date(timeIntervalSince1970: $0) }
    }

    /// Puts `fire` back to fire again at `date` (a retry after a failed
    /// hand-over), keeping its due instant and its place among fires of the
    /// same instant.
    /// - Complexity: O(log n).
    package func postpone(_ fire: DueFire, until date: Date) {
        guard isCurrent(fire), held[fire.slot] == nil else { return }
        dues[fire.slot] = dues[fire.slot] ?? fire.fire
        schedule(slot: fire.slot, at: date.timeIntervalSince1970)
        checkInvariantsInDebugBuilds()
    }

    /// Fires every request due at or before `date`, in time order (ties: add
    /// order), calling `deliver` for each, then sets `now` to `date`.
    /// Repeating requests are rescheduled strictly after the instant they fired.
    /// - Complexity: O(log n) plus one next-fire computation per fire.
    package func advance(to date: Date, deliver: (Fire) throws -> Void) rethrows {
        let limit = date.timeIntervalSince1970
        while let (slot, fire) = popDue(through: limit) {
            let request = requests[Int(slot)]!
            let due = dues[slot] ?? fire
            let next = reschedule(slot: slot, firedAt: fire)
            try deliver(Fire(request: request, date: Date(timeIntervalSince1970: fire),
                             due: Date(timeIntervalSince1970: due), nextDate: next.map { Date(timeIntervalSince1970: $0) }))
        }
        moveNow(to: date)
    }

    /// Counts fires due through `date` without building `Fire` values or
    /// copying requests: the benchmark's hot loop, same order and rescheduling
    /// as `advance`.
    @_spi(Internals) public func advanceCounting(to date: Date) -> Int {
        let limit = date.timeIntervalSince1970
        var count = 0
        while let (slot, fire) = popDue(through: limit) {
            _ = reschedule(slot: slot, firedAt: fire)
            count += 1
        }
        moveNow(to: date)
        return count
    }

    /// The earliest live entry due at or before `limit` (stale ones are dropped
    /// on the way); it stays on the heap for `reschedule` to replace or remove.
    /// Moves `now` up to its fire.
    @inline(__always)
    func popDue(through limit: Double) -> (slot: Int32, fire: Double)? {
        while let top = heap.min, top.fire <= limit {
            guard isLive(top) else {
                dropTop()
                continue
            }
            moveNow(to: Date(timeIntervalSince1970: top.fire))
            return (top.slot, top.fire)
        }
        return nil
    }

    /// After the heap's top (`slot`, fired at `fire`) fired: a repeating request
    /// replaces its entry with its next fire (one sift instead of remove and
    /// insert), anything else leaves. Repeating requests are rescheduled
    /// strictly after the instant they fired.
    /// - Returns: the next fire, `nil` when the request is no longer pending.
    @inline(__always)
    func reschedule(slot: Int32, firedAt fire: Double) -> Double? {
        let index = Int(slot)
        let schedule = schedules[index]
        if dues[slot] != nil { dues[slot] = nil }
        if schedule.repeats, let next = table.fire(schedule, after: fire, addedAt: addedAt[index]) {
            nextFires[index] = next
            _ = heap.replaceMin(with: Entry(fire: next, order: orders[index], slot: slot, generation: generations[index]))
            return next
        }
        _ = heap.removeMin()
        // Its entry left the heap with it: not a stale one.
        nextFires[index] = .infinity
        release(slot: slot, identifier: requests[index]!.identifier)
        return nil
    }
}

extension Dispatcher {
    /// The fire that would follow `fire` once it is committed: the next one of
    /// a repeating request, strictly after the instant it fires; `nil` for a
    /// one-shot request, a trigger with no further fire, or a fire no longer current.
    /// - Complexity: one next-fire computation.
    package func nextFireDate(after fire: DueFire) -> Date? {
        guard isCurrent(fire) else { return nil }
        let schedule = schedules[Int(fire.slot)]
        guard schedule.repeats else { return nil }
        return table.fire(schedule, after: fire.fire, addedAt: addedAt[Int(fire.slot)]).map { Date(timeIntervalSince1970: $0) }
    }
}
