import Foundation
internal import HeapModule

/// Bulk loading: a restart hands the dispatcher every stored request at once.
extension Dispatcher {
    /// Adds `records` in order, exactly as `add(_:nextFire:)` for each would
    /// (a later record replaces an earlier one with the same identifier), but
    /// into an empty dispatcher it builds the slot arrays in local storage and
    /// the heap in one O(n) heapify instead of n sift-ups.
    /// - Complexity: O(n) plus one next-fire computation per record that has no stored fire or missed it.
    @_spi(Internals) public func add(contentsOf records: [ScheduledRequest]) {
        var loader = BulkLoader(self)
        loader.reserveCapacity(records.count)
        for record in records { loader.add(record.request, nextFire: record.nextFire) }
        loader.finish()
    }

    /// Adds requests one at a time as a restart reads them, with the effect of
    /// `add(_:nextFire:)` for each. Into an empty dispatcher it fills local
    /// arrays (no exclusivity checks on the class's storage per request) and
    /// builds the heap once in `finish()`; into a non-empty one it just adds.
    struct BulkLoader {
        private let dispatcher: Dispatcher
        private let isBulk: Bool
        private let present: Double
        private var table: FireScheduleTable
        private var requests: [NotificationRequest?] = [], schedules: [FireSchedule] = []
        private var addedAt: [Double] = [], orders: [UInt64] = [], nextFires: [Double] = [], generations: [UInt32] = []
        private var freeSlots: [Int32] = [], entries: [Entry] = []
        private var dues: [Int32: Double] = [:]
        private var staleEntries = 0
        private var index: [String: Int32] = [:]
        private var order: UInt64
        /// The compiled schedule of each shared trigger, by the store's dense
        /// index: requests that share a trigger share its schedule without
        /// hashing it again. Each is held once by the loader until `finish()`.
        private var sharedSchedules: [FireSchedule?] = []

        /// Starts loading into `dispatcher`.
        init(_ dispatcher: Dispatcher) {
            self.dispatcher = dispatcher
            isBulk = dispatcher.slotByIdentifier.isEmpty && dispatcher.heap.isEmpty && dispatcher.requests.isEmpty
            present = dispatcher.now.timeIntervalSince1970
            table = dispatcher.table
            order = dispatcher.nextOrder
        }

        /// Makes room for `capacity` requests in all, so the arrays and the
        /// identifier index do not grow step by step.
        mutating func reserveCapacity(_ capacity: Int) {
            guard isBulk else { return dispatcher.reserveCapacity(capacity) }
            requests.reserveCapacity(capacity)
            schedules.reserveCapacity(capacity)
            addedAt.reserveCapacity(capacity)
            orders.reserveCapacity(capacity)
            nextFires.reserveCapacity(capacity)
            generations.reserveCapacity(capacity)
            entries.reserveCapacity(capacity)
            index.reserveCapacity(capacity)
        }

        /// Adds `request` as `add(_:nextFire:)` would.
        /// - Parameter sharedTrigger: an index equal for requests with equal
        ///   triggers (the store's, from `forEachPending`), or `nil`.
        mutating func add(_ request: NotificationRequest, nextFire: Date?, sharedTrigger: Int32? = nil) {
            guard isBulk else {
                dispatcher.add(request, nextFire: nextFire)
                return
            }
            let added = request.added?.timeIntervalSince1970 ?? present
            // Stored requests carry their add instant; copy only one that does not.
            let request = request.added != nil ? request : {
                var copy = request
                copy.added = Date(timeIntervalSince1970: present)
                return copy
            }()
            let schedule = self.schedule(for: request.trigger, shared: sharedTrigger)
            let placement = Dispatcher.placement(of: schedule, misfire: request.misfirePolicy, added: added,
                                                 stored: nextFire, now: present, table: &table)
            if case .never = placement {
                // As `add`: the request replaces a pending one even when it never fires.
                table.release(schedule)
                if let old = index.removeValue(forKey: request.identifier) { release(old) }
                return
            }
            let slot = Int32(requests.count)
            if let old = index.updateValue(slot, forKey: request.identifier) { release(old) }
            requests.append(request)
            schedules.append(schedule)
            addedAt.append(added)
            orders.append(order)
            generations.append(0)
            if case .at(let fire, let missed) = placement {
                if let missed { dues[slot] = missed }
                nextFires.append(fire)
                entries.append(Entry(fire: fire, order: order, slot: slot, generation: 0))
            } else {
                nextFires.append(.infinity)
            }
            order += 1
        }

        /// Hands what was loaded to the dispatcher.
        consuming func finish() {
            guard isBulk else { return }
            for case let schedule? in sharedSchedules { table.release(schedule) }
            dispatcher.table = table
            dispatcher.requests = requests
            dispatcher.schedules = schedules
            dispatcher.addedAt = addedAt
            dispatcher.orders = orders
            dispatcher.nextFires = nextFires
            dispatcher.generations = generations
            dispatcher.freeSlots = freeSlots
            dispatcher.slotByIdentifier = index
            dispatcher.nextOrder = order
            dispatcher.heap = Heap(entries)
            dispatcher.dues = dues
            dispatcher.staleEntries = staleEntries
            dispatcher.compactIfStale()
            dispatcher.checkInvariantsInDebugBuilds()
        }

        private mutating func schedule(for trigger: NotificationTrigger?, shared: Int32?) -> FireSchedule {
            guard let shared = shared.map(Int.init) else { return table.schedule(for: trigger) }
            if shared < sharedSchedules.count, let schedule = sharedSchedules[shared] {
                table.retain(schedule)
                return schedule
            }
            let schedule = table.schedule(for: trigger)
            if shared >= sharedSchedules.count {
                sharedSchedules.append(contentsOf: repeatElement(nil, count: shared + 1 - sharedSchedules.count))
            }
            // The loader holds each cached schedule itself until `finish()`, so an
            // entry cannot be freed and its slot reused while the cache points to it.
            table.retain(schedule)
            sharedSchedules[shared] = schedule
            return schedule
        }

        /// A replaced request's slot: empty, its heap entry stale, its schedule held once less.
        private mutating func release(_ slot: Int32) {
            table.release(schedules[Int(slot)])
            requests[Int(slot)] = nil
            if nextFires[Int(slot)].isFinite { staleEntries += 1 }
            dues[slot] = nil
            nextFires[Int(slot)] = .infinity
            generations[Int(slot)] &+= 1
            freeSlots.append(slot)
        }
    }
}
