/// The state machine of one used fix: enter, exit with hysteresis, dwell and
/// cross, per device and region (as `trigger-eval geofence` reports them).
extension RegionMonitor {
    /// Applies a used fix whose covering regions are `covered` (in any order).
    func transition(device: Int, time: Double, x: Double, y: Double, covered: UnsafeBufferPointer<Int32>) {
        let isFirst = !devices[device].hasFix
        if !isFirst && options.dwell == nil && !options.cross && isUnchanged(devices[device].head, covered) {
            // The common case: in exactly the regions it was in; nothing can fire.
            record(device, time, x, y)
            return
        }
        if options.cross {
            insideBefore.removeAll(keepingCapacity: true)
            var link = devices[device].head
            while link >= 0 { insideBefore.append(memberships[Int(link)].region); link = memberships[Int(link)].next }
        }

        // Exits, and dwell for those that stay: walk the device's list.
        var previous: Int32 = -1
        var link = devices[device].head
        while link >= 0 {
            let membership = memberships[Int(link)]
            let region = membership.region
            if covered.contains(region) || !coverage.isBeyond(options.hysteresis, of: Int(region), x, y) {
                if membership.dwellPending, let dwell = options.dwell, time - membership.enteredAt >= dwell {
                    memberships[Int(link)].dwellPending = false
                    fire(device, region, .dwell)
                }
                previous = link
                link = membership.next
                continue
            }
            if flags[Int(region)].notifyOnExit { fire(device, region, .exit) }
            // Unlink and free.
            if previous < 0 { devices[device].head = membership.next } else { memberships[Int(previous)].next = membership.next }
            memberships[Int(link)].next = freeMembership
            freeMembership = link
            link = membership.next
        }

        // Enters: covered now and not in the list (which now holds only those still in).
        for region in covered where !isMember(devices[device].head, region) {
            let entered = !(isFirst && options.initial == .none)
            let link = allocateMembership(Membership(region: region, next: devices[device].head,
                                                     enteredAt: entered ? time : .nan,
                                                     dwellPending: entered && options.dwell != nil))
            devices[device].head = link
            if entered && flags[Int(region)].notifyOnEntry { fire(device, region, .enter) }
        }

        // Cross: outside at the previous fix and now, the segment through the region.
        if options.cross && !isFirst {
            crossings(device: device, toX: x, y: y, covered: covered)
        }
        record(device, time, x, y)
        if pendingEvents.count > 1 { pendingEvents.sort { $0.region < $1.region } }
    }

    @inline(__always)
    private func record(_ device: Int, _ time: Double, _ x: Double, _ y: Double) {
        devices[device].hasFix = true
        devices[device].time = time
        devices[device].x = x
        devices[device].y = y
    }

    /// Whether the list starting at `head` holds exactly the regions of `covered`.
    @inline(__always)
    private func isUnchanged(_ head: Int32, _ covered: UnsafeBufferPointer<Int32>) -> Bool {
        var count = 0
        var link = head
        while link >= 0 {
            if !covered.contains(memberships[Int(link)].region) { return false }
            count += 1
            link = memberships[Int(link)].next
        }
        return count == covered.count
    }

    private func isMember(_ head: Int32, _ region: Int32) -> Bool {
        var link = head
        while link >= 0 {
            if memberships[Int(link)].region == region { return true }
            link = memberships[Int(link)].next
        }
        return false
    }

    private func allocateMembership(_ membership: Membership) -> Int32 {
        if freeMembership >= 0 {
            let link = freeMembership
            freeMembership = memberships[Int(link)].next
            memberships[Int(link)] = membership
            return link
        }
        memberships.append(membership)
        return Int32(memberships.count - 1)
    }

    /// Fires `cross` for each region the segment from the device's previous fix to
    /// (x, y) passes through while both ends are outside it.
    private func crossings(device: Int, toX x: Double, y: Double, covered: UnsafeBufferPointer<Int32>) {
        var found: [Int32] = []
        for (px, py, qx, qy) in GeoMath.segmentPieces(devices[device].x, devices[device].y, x, y) {
            coverage.forEachCandidate(minX: min(px, qx), minY: min(py, qy), maxX: max(px, qx), maxY: max(py, qy)) { region in
                // Outside at the previous fix (not in the state before this fix) and
                // outside now (not covered; without cover it cannot have entered).
                if covered.contains(region) || insideBefore.contains(region) || found.contains(region) { return }
                if coverage.segmentMeets(Int(region), px, py, qx, qy) { found.append(region) }
            }
        }
        for region in found where flags[Int(region)].notifyOnEntry || flags[Int(region)].notifyOnExit {
            fire(device, region, .cross)
        }
    }

    private func fire(_ device: Int, _ region: Int32, _ kind: RegionEvent.Kind) {
        if !flags[Int(region)].repeats {
            // At most one event per device and region.
            if !finished.insert(Int64(device) << 32 | Int64(region)).inserted { return }
        }
        pendingEvents.append(PendingEvent(region: region, kind: kind))
        eventCounts[kind.ordinal] += 1
    }
}
