import Foundation
import HeapModule

/// Bulk loading: a restart hands the dispatcher every stored request at once.
extension Dispatcher {
    /// Adds `records` in order, exactly as `add(_:nextFire:)` for each would
    /// (a later record replaces an earlier one with the same identifier), but
    /// into an empty dispatcher it builds the slot arrays in local storage and
    /// the heap in one O(n) heapify instead of n sift-ups.
    /// - Complexity: O(n) plus one next-fire computation per record that has no stored fire or missed it.
    public func add(contentsOf records: [NotificationStore.PendingRecord]) {
        guard slotByIdentifier.isEmpty, heap.isEmpty, requests.isEmpty else {
            for record in records { add(record.request, nextFire: record.nextFire) }
            return
        }
        let present = now.timeIntervalSince1970
        var table = self.table
        var requests: [NotificationRequest?] = [], schedules: [FireSchedule] = []
        var addedAt: [Double] = [], orders: [UInt64] = [], nextFires: [Double] = [], generations: [UInt32] = []
        var freeSlots: [Int32] = [], entries: [Entry] = []
        var index: [String: Int32] = [:]
        requests.reserveCapacity(records.count)
        schedules.reserveCapacity(records.count)
        addedAt.reserveCapacity(records.count)
        orders.reserveCapacity(records.count)
        nextFires.reserveCapacity(records.count)
        generations.reserveCapacity(records.count)
        entries.reserveCapacity(records.count)
        index.reserveCapacity(records.count)
        var order = nextOrder
        for record in records {
            let added = record.request.added?.timeIntervalSince1970 ?? present
            // Stored requests carry their add instant; copy only one that does not.
            let request = record.request.added != nil ? record.request : {
                var copy = record.request
                copy.added = now
                return copy
            }()
            let schedule = table.schedule(for: request.trigger)
            let placement = Self.placement(of: schedule, misfire: request.misfirePolicy, added: added,
                                           stored: record.nextFire, now: present, table: &table)
            if case .never = placement {
                // As `add`: the request replaces a pending one even when it never fires.
                if let old = index.removeValue(forKey: request.identifier) {
                    requests[Int(old)] = nil
                    nextFires[Int(old)] = .infinity
                    generations[Int(old)] &+= 1
                    freeSlots.append(old)
                }
                continue
            }
            let slot = Int32(requests.count)
            if let old = index.updateValue(slot, forKey: request.identifier) {
                requests[Int(old)] = nil
                nextFires[Int(old)] = .infinity
                generations[Int(old)] &+= 1
                freeSlots.append(old)
            }
            requests.append(request)
            schedules.append(schedule)
            addedAt.append(added)
            orders.append(order)
            generations.append(0)
            if case .at(let fire) = placement {
                nextFires.append(fire)
                entries.append(Entry(fire: fire, order: order, slot: slot, generation: 0))
            } else {
                nextFires.append(.infinity)
            }
            order += 1
        }
        self.table = table
        self.requests = requests
        self.schedules = schedules
        self.addedAt = addedAt
        self.orders = orders
        self.nextFires = nextFires
        self.generations = generations
        self.freeSlots = freeSlots
        self.slotByIdentifier = index
        self.nextOrder = order
        heap = Heap(entries)
    }
}
