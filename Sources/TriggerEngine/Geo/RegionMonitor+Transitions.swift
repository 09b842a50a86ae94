/// The state machine of one used fix: enter, exit with hysteresis, dwell and
/// cross, per device and region (`shared/spec/cli.md`, `trigger-eval geofence`).
extension RegionMonitor {
    func update(device: Int, time: Double, x: Double, y: Double) {
        stamp += 1
        coveredNow.removeAll(keepingCapacity: true)
        grid.forEachCandidate(x, y) { region in
            let index = Int(region)
            // A region with several parts in this cell is tested once.
            if stamps[index] == stamp { return }
            stamps[index] = stamp
            if covers(index, x, y) { coveredNow.append(region) }
        }
        var state = devices[device]
        devices[device] = DeviceState()   // keeps `state`'s arrays uniquely referenced
        let isFirst = !state.hasFix
        let insideBefore = options.cross ? state.inside.map(\.region) : []

        // Exits: regions the device was in and is not covered by now.
        var kept = 0
        let before = state.inside.count
        for position in 0..<before {
            let membership = state.inside[position]
            if coveredNow.contains(membership.region) || !isBeyondHysteresis(Int(membership.region), x, y) {
                state.inside[kept] = membership
                kept += 1
            } else if regions[Int(membership.region)].notifyOnExit {
                fire(membership.region, .exit, &state)
            }
        }
        state.inside.removeLast(before - kept)
        let stillInside = kept

        // Enters: covered now and not already in.
        for region in coveredNow where !state.inside[0..<stillInside].contains(where: { $0.region == region }) {
            if isFirst && options.initial == .none {
                state.inside.append(Membership(region: region, enteredAt: nil, dwellPending: false))
                continue
            }
            state.inside.append(Membership(region: region, enteredAt: time, dwellPending: options.dwell != nil))
            if regions[Int(region)].notifyOnEntry { fire(region, .enter, &state) }
        }

        // Dwell: still in, long enough after the enter (never at the enter's own fix).
        if let dwell = options.dwell {
            for position in 0..<stillInside where state.inside[position].dwellPending {
                if let entered = state.inside[position].enteredAt, time - entered >= dwell {
                    state.inside[position].dwellPending = false
                    fire(state.inside[position].region, .dwell, &state)
                }
            }
        }

        // Cross: outside at the previous fix and now, the segment through the region.
        if options.cross && !isFirst {
            crossings(from: state, insideBefore: insideBefore, toX: x, y: y) { region in
                let entry = regions[Int(region)]
                if entry.notifyOnEntry || entry.notifyOnExit { fire(region, .cross, &state) }
            }
        }

        state.hasFix = true
        state.time = time
        state.x = x
        state.y = y
        devices[device] = state
        if pendingEvents.count > 1 { sortPendingEvents() }
    }

    /// Calls `body` for each region the segment from the device's previous fix to
    /// (x, y) passes through while both ends are outside it.
    private func crossings(from state: DeviceState, insideBefore: [Int32], toX x: Double, y: Double,
                           _ body: (Int32) -> Void) {
        var found: [Int32] = []
        for (px, py, qx, qy) in GeoMath.segmentPieces(state.x, state.y, x, y) {
            stamp += 1
            grid.forEachCandidate(minX: min(px, qx), minY: min(py, qy), maxX: max(px, qx), maxY: max(py, qy)) { region in
                let index = Int(region)
                if stamps[index] == stamp { return }
                stamps[index] = stamp
                // Outside at the previous fix (not in the state before this fix) and
                // outside now (not covered; without cover it cannot have entered).
                if coveredNow.contains(region) || insideBefore.contains(region) || found.contains(region) { return }
                if segmentMeets(index, px, py, qx, qy) { found.append(region) }
            }
        }
        for region in found { body(region) }
    }

    private func fire(_ region: Int32, _ kind: RegionEvent.Kind, _ state: inout DeviceState) {
        if !regions[Int(region)].repeats {
            if state.finished.contains(region) { return }
            state.finished.append(region)
        }
        pendingEvents.append(PendingEvent(region: region, kind: kind))
        counters.events[kind, default: 0] += 1
    }

    /// Events of one fix in region order (one event per region and fix at most).
    private func sortPendingEvents() {
        pendingEvents.sort { $0.region < $1.region }
    }
}
