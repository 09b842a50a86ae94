import Foundation
internal import HeapModule

/// The priority-queue dispatcher: fires due requests in time order (ties in the
/// order they were added), reschedules repeating ones from their trigger and
/// drops one-shot ones after delivery.
///
/// The heap holds 24-byte entries (fire instant, add order, slot, generation);
/// requests live in a slot array beside it, with their triggers compiled into
/// `FireSchedule`s (calendar searches and recurrences interned in a
/// `FireScheduleTable`), so a fire reschedules on epoch seconds without copying
/// the request. Removing or replacing a request bumps its slot's generation
/// instead of searching the heap; entries of an older generation are dropped
/// when they reach the top (lazy deletion), or all at once when they outnumber
/// the live ones, so churn (one identifier replaced a million times) keeps the
/// heap within twice the pending count.
///
/// Fires are taken in two steps when the hand-over can fail (`Dispatcher+Fires`):
/// `dueFire(through:)` looks at the earliest due fire without taking it,
/// `commit(_:)` takes it (reschedules or drops the request) once it was handed
/// over, `postpone(_:until:)` puts it back for a retry. `advance(to:deliver:)`
/// does both at once, for simulations and benchmarks.
///
/// The dispatcher has no clock of its own: `advance(to:deliver:)` and
/// `moveNow(to:)` move its time forward, which a virtual clock does by jumping
/// and `UserNotificationCenter` does from its clock.
/// Not thread-safe: it is owned by one center (an actor) or one task.
@_spi(Internals) public final class Dispatcher {
    /// One delivery the dispatcher made.
    package struct Fire: Sendable {
        package var request: NotificationRequest
        /// When it fired (the due instant, or the restart instant for a missed one).
        package var date: Date
        /// The instant it was due: `date`, except for a fire missed while the
        /// dispatcher was down (fired at restart) or retried after a failed hand-over.
        package var due: Date
        /// When it fires next, `nil` when it no longer is pending.
        package var nextDate: Date?
    }

    struct Entry: Comparable {
        var fire: Double
        var order: UInt64
        var slot: Int32
        var generation: UInt32

        static func < (lhs: Entry, rhs: Entry) -> Bool {
            lhs.fire < rhs.fire || (lhs.fire == rhs.fire && lhs.order < rhs.order)
        }
        static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.fire == rhs.fire && lhs.order == rhs.order
        }
    }

    /// The zone floating calendar and recurrence triggers follow.
    package let floatingZone: ZoneRules
    /// The dispatcher's present: nothing at or before it is still due.
    package private(set) var now: Date

    var heap = Heap<Entry>()
    var table: FireScheduleTable
    var requests: [NotificationRequest?] = []
    var schedules: [FireSchedule] = []
    var addedAt: [Double] = []
    var orders: [UInt64] = []
    var nextFires: [Double] = []
    var generations: [UInt32] = []
    var freeSlots: [Int32] = []
    var slotByIdentifier: [String: Int32] = [:]
    var nextOrder: UInt64 = 0
    /// Heap entries that no longer match their slot (the request was removed,
    /// replaced, rescheduled elsewhere): dropped when they reach the top, or all
    /// at once when they outnumber the live ones (`compactIfStale`).
    var staleEntries = 0
    /// The due instant of a slot whose heap entry fires at another instant: a
    /// missed fire placed at the restart instant, or a fire whose hand-over failed
    /// and waits for its retry. Rare, so a dictionary.
    var dues: [Int32: Double] = [:]
    /// Slots whose fire was handed over and waits for its record (`hold`):
    /// the fire instant and the generation the `DueFire` knows the slot by,
    /// off the heap until `commit` moves the request on.
    var held: [Int32: (fire: Double, generation: UInt32)] = [:]

    /// Creates an empty dispatcher whose time starts at `now`.
    @_spi(Internals) public init(now: Date, floatingZone: ZoneRules = .utc) {
        self.now = now
        self.floatingZone = floatingZone
        self.table = FireScheduleTable(floatingZone: floatingZone)
    }

    /// How many requests are pending (location and push ones included).
    @_spi(Internals) public var pendingCount: Int { slotByIdentifier.count }

    /// How many entries the heap holds, stale ones included (at most about
    /// twice the requests scheduled on the clock).
    package var heapCount: Int { heap.count }

    /// How many distinct calendar searches and recurrences the requests share
    /// (the benchmark reports it beside the dispatch rate).
    @_spi(Internals) public var distinctTriggerCount: Int { table.count }

    /// The pending requests, in the order they were added.
    package var pendingRequests: [NotificationRequest] {
        slotByIdentifier.values.sorted { orders[Int($0)] < orders[Int($1)] }.compactMap { requests[Int($0)] }
    }

    /// The pending request with `identifier`.
    package func request(withIdentifier identifier: String) -> NotificationRequest? {
        slotByIdentifier[identifier].flatMap { requests[Int($0)] }
    }

    /// When the request fires next on the clock, `nil` for location/push ones or unknown identifiers.
    package func nextFireDate(ofIdentifier identifier: String) -> Date? {
        guard let slot = slotByIdentifier[identifier], nextFires[Int(slot)].isFinite else { return nil }
        return Date(timeIntervalSince1970: nextFires[Int(slot)])
    }

    /// The earliest due instant, `nil` when nothing is scheduled on the clock.
    /// - Complexity: amortised O(log n) (stale entries are dropped on the way).
    package var nextFireDate: Date? {
        while let top = heap.min {
            if isLive(top) { return Date(timeIntervalSince1970: top.fire) }
            dropTop()
        }
        return nil
    }

    /// Moves the present forward to `date` (never back) without firing: what
    /// comes due by then stays due and fires at the next `advance` or `dueFire`.
    /// A request added afterwards is placed after `date`.
    package func moveNow(to date: Date) {
        if date > now { now = date }
    }

    /// Adds a request, replacing a pending one with the same identifier, and
    /// schedules its first fire after `now` (at `now` without a trigger).
    /// - Parameter nextFire: a stored next fire (a restart): one before `now`
    ///   was missed and follows the request's `MisfirePolicy`.
    /// - Returns: the first fire, `nil` for location/push requests or a trigger that never fires.
    /// - Complexity: O(log n) plus one next-fire computation.
    @discardableResult
    @_spi(Internals) public func add(_ request: NotificationRequest, nextFire: Date? = nil) -> Date? {
        removeRequest(withIdentifier: request.identifier)
        var request = request
        if request.added == nil { request.added = now }
        let added = request.added!.timeIntervalSince1970
        let schedule = table.schedule(for: request.trigger)
        let fire: Double?
        var due: Double?
        switch Self.placement(of: schedule, misfire: request.misfirePolicy, added: added, stored: nextFire,
                              now: now.timeIntervalSince1970, table: &table) {
        case .never:
            table.release(schedule)
            return nil
        case .onEvent: fire = nil
        case .at(let instant, let missed):
            fire = instant
            due = missed
        }
        let slot: Int32
        if let free = freeSlots.popLast() {
            slot = free
            requests[Int(slot)] = request
            schedules[Int(slot)] = schedule
            addedAt[Int(slot)] = added
            orders[Int(slot)] = nextOrder
        } else {
            slot = Int32(requests.count)
            requests.append(request)
            schedules.append(schedule)
            addedAt.append(added)
            orders.append(nextOrder)
            nextFires.append(.infinity)
            generations.append(0)
        }
        nextOrder += 1
        slotByIdentifier[request.identifier] = slot
        if let due { dues[slot] = due }
        if let fire { self.schedule(slot: slot, at: fire) }
        checkInvariantsInDebugBuilds()
        return fire.map { Date(timeIntervalSince1970: $0) }
    }

    /// Where a request goes when it is added.
    enum Placement {
        /// Its trigger never fires (again): it is not added.
        case never
        /// Location and push requests wait for their event.
        case onEvent
        /// On the clock at this instant; `missed` is the due instant of a stored
        /// fire that fell while the dispatcher was down and fires at `now` instead.
        case at(Double, missed: Double?)
    }

    /// The first fire of a request being added at `now`: after `now` from its
    /// trigger, at `now` without one, or its `stored` next fire (a restart),
    /// where a missed one follows the request's `MisfirePolicy`.
    static func placement(of schedule: FireSchedule, misfire: MisfirePolicy, added: Double, stored: Date?,
                          now: Double, table: inout FireScheduleTable) -> Placement {
        switch schedule {
        case .event:
            return .onEvent
        case .immediate:
            guard let stored = stored?.timeIntervalSince1970, stored < now else {
                return .at(stored?.timeIntervalSince1970 ?? now, missed: nil)
            }
            return .at(now, missed: stored)
        case .calendar, .interval, .recurrence:
            guard let stored = stored?.timeIntervalSince1970 else {
                return table.fire(schedule, after: now, addedAt: added).map { .at($0, missed: nil) } ?? .never
            }
            if stored >= now { return .at(stored, missed: nil) }
            switch misfire {
            case .fireOnceNow: return .at(now, missed: stored)
            case .skipToNext: return table.fire(schedule, after: now, addedAt: added).map { .at($0, missed: nil) } ?? .never
            case .fireAll: return .at(stored, missed: nil)
            }
        }
    }

    /// Makes room for `count` pending requests in all, so a bulk load (a
    /// restart) does not grow the slot arrays, index and heap step by step.
    package func reserveCapacity(_ count: Int) {
        requests.reserveCapacity(count)
        schedules.reserveCapacity(count)
        addedAt.reserveCapacity(count)
        orders.reserveCapacity(count)
        nextFires.reserveCapacity(count)
        generations.reserveCapacity(count)
        slotByIdentifier.reserveCapacity(count)
        heap.reserveCapacity(count)
    }

    /// Removes pending requests by identifier (unknown ones are ignored).
    /// - Complexity: O(1) each, amortised; their heap entries go when they reach
    ///   the top or when stale entries outnumber live ones.
    package func removePending(withIdentifiers identifiers: some Sequence<String>) {
        for identifier in identifiers { removeRequest(withIdentifier: identifier) }
        checkInvariantsInDebugBuilds()
    }

    /// Removes every pending request.
    package func removeAllPending() {
        heap = Heap()
        table.removeAll()
        requests.removeAll()
        schedules.removeAll()
        addedAt.removeAll()
        orders.removeAll()
        nextFires.removeAll()
        generations.removeAll()
        freeSlots.removeAll()
        slotByIdentifier.removeAll()
        dues.removeAll()
        held.removeAll()
        staleEntries = 0
    }

    /// Delivers a pending location request that its region fired: drops it when
    /// it does not repeat.
    /// - Returns: the request, `nil` when no such request is pending.
    package func fireEvent(identifier: String, at date: Date) -> NotificationRequest? {
        guard let slot = slotByIdentifier[identifier], let request = requests[Int(slot)] else { return nil }
        if !schedules[Int(slot)].repeats { release(slot: slot, identifier: identifier) }
        return request
    }

    func schedule(slot: Int32, at fire: Double) {
        // Its entry for that instant is already on the heap.
        if nextFires[Int(slot)] == fire { return }
        if nextFires[Int(slot)].isFinite { staleEntries += 1 }
        nextFires[Int(slot)] = fire
        heap.insert(Entry(fire: fire, order: orders[Int(slot)], slot: slot, generation: generations[Int(slot)]))
        compactIfStale()
    }

    func isLive(_ entry: Entry) -> Bool {
        generations[Int(entry.slot)] == entry.generation && nextFires[Int(entry.slot)] == entry.fire
    }

    /// Drops the heap's top, a stale entry.
    func dropTop() {
        _ = heap.removeMin()
        staleEntries -= 1
    }

    func removeRequest(withIdentifier identifier: String) {
        guard let slot = slotByIdentifier[identifier] else { return }
        release(slot: slot, identifier: identifier)
    }

    /// Empties `slot`; its heap entry, if any, becomes stale.
    func release(slot: Int32, identifier: String) {
        table.release(schedules[Int(slot)])
        slotByIdentifier[identifier] = nil
        requests[Int(slot)] = nil
        if nextFires[Int(slot)].isFinite { staleEntries += 1 }
        nextFires[Int(slot)] = .infinity
        generations[Int(slot)] &+= 1
        dues[slot] = nil
        held[slot] = nil
        freeSlots.append(slot)
        compactIfStale()
    }

    /// Rebuilds the heap from its live entries when stale ones outnumber them:
    /// O(n) once every n stale entries, so O(1) amortised per removal, and the
    /// heap stays within twice the live count (one replaced request: a heap of
    /// at most two entries, however often it is replaced).
    func compactIfStale() {
        guard staleEntries > 0, staleEntries > heap.count - staleEntries else { return }
        heap = Heap(heap.unordered.filter(isLive))
        staleEntries = 0
    }
}
