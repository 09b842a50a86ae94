import Foundation
import HeapModule

/// The priority-queue dispatcher: fires due requests in time order (ties in the
/// order they were added), reschedules repeating ones from their trigger and
/// drops one-shot ones after delivery.
///
/// The heap holds 24-byte entries (fire instant, add order, slot, generation);
/// requests live in a slot array beside it, with their triggers compiled into
/// `FireSchedule`s (calendar searches and recurrences interned in a
/// `FireScheduleTable`), so a fire reschedules on epoch seconds without copying
/// the request. Removing or replacing a request
/// bumps its slot's generation instead of searching the heap, and entries of an
/// older generation are dropped when they reach the top (lazy deletion).
///
/// The dispatcher has no clock of its own: `advance(to:deliver:)` moves its
/// time forward, which a virtual clock does by jumping and `UserNotificationCenter`
/// does by sleeping until `nextFireDate`.
/// Not thread-safe: it is owned by one center (an actor) or one task.
public final class Dispatcher {
    /// One delivery the dispatcher made.
    public struct Fire: Sendable {
        public var request: NotificationRequest
        /// When it fired (the due instant, or the restart instant for a missed one).
        public var date: Date
        /// When it fires next, `nil` when it no longer is pending.
        public var nextDate: Date?
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
    public let floatingZone: ZoneRules
    /// The dispatcher's present: nothing at or before it is still due.
    public private(set) var now: Date

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

    /// Creates an empty dispatcher whose time starts at `now`.
    public init(now: Date, floatingZone: ZoneRules = .utc) {
        self.now = now
        self.floatingZone = floatingZone
        self.table = FireScheduleTable(floatingZone: floatingZone)
    }

    /// How many requests are pending (location and push ones included).
    public var pendingCount: Int { slotByIdentifier.count }

    /// How many distinct calendar searches and recurrences the requests share
    /// (the benchmark reports it beside the dispatch rate).
    package var distinctTriggerCount: Int { table.count }

    /// The pending requests, in the order they were added.
    public var pendingRequests: [NotificationRequest] {
        slotByIdentifier.values.sorted { orders[Int($0)] < orders[Int($1)] }.compactMap { requests[Int($0)] }
    }

    /// The pending request with `identifier`.
    public func request(withIdentifier identifier: String) -> NotificationRequest? {
        slotByIdentifier[identifier].flatMap { requests[Int($0)] }
    }

    /// When the request fires next on the clock, `nil` for location/push ones or unknown identifiers.
    public func nextFireDate(ofIdentifier identifier: String) -> Date? {
        guard let slot = slotByIdentifier[identifier], nextFires[Int(slot)].isFinite else { return nil }
        return Date(timeIntervalSince1970: nextFires[Int(slot)])
    }

    /// The earliest due instant, `nil` when nothing is scheduled on the clock.
    /// - Complexity: amortised O(log n) (stale entries are dropped on the way).
    public var nextFireDate: Date? {
        while let top = heap.min {
            if isLive(top) { return Date(timeIntervalSince1970: top.fire) }
            _ = heap.removeMin()
        }
        return nil
    }

    /// Adds a request, replacing a pending one with the same identifier, and
    /// schedules its first fire after `now` (at `now` without a trigger).
    /// - Parameter nextFire: a stored next fire (a restart): one before `now`
    ///   was missed and follows the request's `MisfirePolicy`.
    /// - Returns: the first fire, `nil` for location/push requests or a trigger that never fires.
    /// - Complexity: O(log n) plus one next-fire computation.
    @discardableResult
    public func add(_ request: NotificationRequest, nextFire: Date? = nil) -> Date? {
        removeRequest(withIdentifier: request.identifier)
        var request = request
        if request.added == nil { request.added = now }
        let added = request.added!.timeIntervalSince1970
        let schedule = table.schedule(for: request.trigger)
        let fire: Double?
        switch Self.placement(of: schedule, misfire: request.misfirePolicy, added: added, stored: nextFire,
                              now: now.timeIntervalSince1970, table: &table) {
        case .never:
            table.release(schedule)
            return nil
        case .onEvent: fire = nil
        case .at(let instant): fire = instant
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
        if let fire { self.schedule(slot: slot, at: fire) }
        return fire.map { Date(timeIntervalSince1970: $0) }
    }

    /// Where a request goes when it is added.
    enum Placement {
        /// Its trigger never fires (again): it is not added.
        case never
        /// Location and push requests wait for their event.
        case onEvent
        /// On the clock at this instant.
        case at(Double)
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
            return .at(stored.map { max($0.timeIntervalSince1970, now) } ?? now)
        case .calendar, .interval, .recurrence:
            let fire: Double?
            if let stored = stored?.timeIntervalSince1970 {
                if stored >= now {
                    fire = stored
                } else {
                    switch misfire {
                    case .fireOnceNow: fire = now
                    case .skipToNext: fire = table.fire(schedule, after: now, addedAt: added)
                    case .fireAll: fire = stored
                    }
                }
            } else {
                fire = table.fire(schedule, after: now, addedAt: added)
            }
            return fire.map { .at($0) } ?? .never
        }
    }

    /// Makes room for `count` pending requests in all, so a bulk load (a
    /// restart) does not grow the slot arrays, index and heap step by step.
    public func reserveCapacity(_ count: Int) {
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
    /// - Complexity: O(1) each; their heap entries go when they reach the top.
    public func removePending(withIdentifiers identifiers: some Sequence<String>) {
        for identifier in identifiers { removeRequest(withIdentifier: identifier) }
    }

    /// Removes every pending request.
    public func removeAllPending() {
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
    }

    /// Fires every request due at or before `date`, in time order (ties: add
    /// order), calling `deliver` for each, then sets `now` to `date`.
    /// Repeating requests are rescheduled strictly after the instant they fired.
    /// - Complexity: O(log n) plus one next-fire computation per fire.
    public func advance(to date: Date, deliver: (Fire) throws -> Void) rethrows {
        let limit = date.timeIntervalSince1970
        while let (slot, fire) = popDue(through: limit) {
            let request = requests[Int(slot)]!
            let next = reschedule(slot: slot, firedAt: fire)
            try deliver(Fire(request: request, date: Date(timeIntervalSince1970: fire),
                             nextDate: next.map { Date(timeIntervalSince1970: $0) }))
        }
        if date > now { now = date }
    }

    /// Counts fires due through `date` without building `Fire` values or
    /// copying requests: the benchmark's hot loop, same order and rescheduling
    /// as `advance`.
    package func advanceCounting(to date: Date) -> Int {
        let limit = date.timeIntervalSince1970
        var count = 0
        while let (slot, fire) = popDue(through: limit) {
            _ = reschedule(slot: slot, firedAt: fire)
            count += 1
        }
        if date > now { now = date }
        return count
    }

    /// The earliest live entry due at or before `limit` (stale ones are dropped
    /// on the way); it stays on the heap for `reschedule` to replace or remove.
    /// Moves `now` up to its fire.
    @inline(__always)
    private func popDue(through limit: Double) -> (slot: Int32, fire: Double)? {
        while let top = heap.min, top.fire <= limit {
            guard isLive(top) else {
                _ = heap.removeMin()
                continue
            }
            if top.fire > now.timeIntervalSince1970 { now = Date(timeIntervalSince1970: top.fire) }
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
    private func reschedule(slot: Int32, firedAt fire: Double) -> Double? {
        let index = Int(slot)
        let schedule = schedules[index]
        if schedule.repeats, let next = table.fire(schedule, after: fire, addedAt: addedAt[index]) {
            nextFires[index] = next
            _ = heap.replaceMin(with: Entry(fire: next, order: orders[index], slot: slot, generation: generations[index]))
            return next
        }
        _ = heap.removeMin()
        release(slot: slot, identifier: requests[index]!.identifier)
        return nil
    }

    /// Delivers a pending location request that its region fired: drops it when
    /// it does not repeat.
    /// - Returns: the request, `nil` when no such request is pending.
    public func fireEvent(identifier: String, at date: Date) -> NotificationRequest? {
        guard let slot = slotByIdentifier[identifier], let request = requests[Int(slot)] else { return nil }
        if !schedules[Int(slot)].repeats { release(slot: slot, identifier: identifier) }
        return request
    }

    func schedule(slot: Int32, at fire: Double) {
        nextFires[Int(slot)] = fire
        heap.insert(Entry(fire: fire, order: orders[Int(slot)], slot: slot, generation: generations[Int(slot)]))
    }

    func isLive(_ entry: Entry) -> Bool {
        generations[Int(entry.slot)] == entry.generation && nextFires[Int(entry.slot)] == entry.fire
    }

    func removeRequest(withIdentifier identifier: String) {
        guard let slot = slotByIdentifier[identifier] else { return }
        release(slot: slot, identifier: identifier)
    }

    func release(slot: Int32, identifier: String) {
        table.release(schedules[Int(slot)])
        slotByIdentifier[identifier] = nil
        requests[Int(slot)] = nil
        nextFires[Int(slot)] = .infinity
        generations[Int(slot)] &+= 1
        freeSlots.append(slot)
    }
}
