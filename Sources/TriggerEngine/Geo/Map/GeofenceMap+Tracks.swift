/// Tracks as the run streams: which devices are drawn, which of their fixes, and
/// writing them to the spool in chunks (`MapSampling` states the rule).
extension GeofenceMap {
    /// Fixes a slot holds before they go to the spool as one chunk (one SVG path).
    static let chunkSize = 512

    /// A drawn device's track in the making.
    struct TrackSlot {
        var device: Int32
        /// Fixes not yet spooled.
        var pending: [TrackPoint] = []
        /// The previous fix's longitude, unwrapped: a track crossing the
        /// antimeridian goes on past ±180 instead of jumping across the map.
        var unwrapped = 0.0
        /// The device's latest fix, drawn at the end whatever the stride, so that
        /// a track reaches its last fix.
        var last: TrackPoint?
    }

    /// A fix of a track as spooled: longitude unwrapped along the track.
    struct TrackPoint: BitwiseCopyable {
        var longitude: Double
        var latitude: Double
        /// The fix's number among the device's used fixes; `UInt32.max` for a
        /// device's last fix, which every stride keeps.
        var sequence: UInt32
    }

    /// A chunk's header in the spool; `count` track points follow.
    struct ChunkHeader: BitwiseCopyable {
        var device: Int32
        var count: Int32
    }

    /// A drawn device, ordered by its hash (then its number, for equal hashes).
    struct HashedDevice: Comparable {
        var hash: UInt64
        var device: Int32

        static func < (a: HashedDevice, b: HashedDevice) -> Bool {
            (a.hash, a.device) < (b.hash, b.device)
        }
    }

    /// Decides at a device's first fix whether its track is drawn: while fewer
    /// than `maxTrackDevices` are, yes; after that, if its hash is smaller than
    /// the largest drawn one, which gives way (its spooled chunks are skipped
    /// when the map is written). So the drawn devices are always those with the
    /// smallest hashes so far.
    func admit(_ device: Int32) {
        let candidate = HashedDevice(hash: MapSampling.deviceHash(names[Int(device)]), device: device)
        if drawnByHash.count < sampling.maxTrackDevices {
            drawnByHash.insert(candidate)
            slotOfDevice[Int(device)] = Int32(slots.count)
            slots.append(TrackSlot(device: device))
            return
        }
        guard let largest = drawnByHash.max, candidate < largest else { return }
        drawnByHash.replaceMax(with: candidate)
        let slot = slotOfDevice[Int(largest.device)]
        slotOfDevice[Int(largest.device)] = -1
        slotOfDevice[Int(device)] = slot
        var reused = TrackSlot(device: device)
        reused.pending = slots[Int(slot)].pending
        reused.pending.removeAll(keepingCapacity: true)
        slots[Int(slot)] = reused
    }

    /// Adds a drawn device's fix: spooled when the stride keeps it.
    func addTrackFix(slot: Int, sequence: UInt32, latitude: Double, longitude: Double, previous: Double) {
        let unwrapped = previous.isNaN ? longitude : slots[slot].unwrapped + GeoMath.wrappedDelta(longitude, from: previous)
        slots[slot].unwrapped = unwrapped
        let point = TrackPoint(longitude: unwrapped, latitude: latitude, sequence: sequence)
        slots[slot].last = point
        guard sequence & (fixStride - 1) == 0 else { return }
        slots[slot].pending.append(point)
        if slots[slot].pending.count >= Self.chunkSize { spoolChunk(slot) }
        spooledFixes += 1
        if spooledFixes > sampling.maxTrackFixes && fixStride < 1 << 30 {
            // Every other fix from now on, and every other one of those already kept.
            fixStride *= 2
            spooledFixes /= 2
        }
    }

    private func spoolChunk(_ slot: Int) {
        let pending = slots[slot].pending
        guard !pending.isEmpty else { return }
        trackSpool.append(ChunkHeader(device: slots[slot].device, count: Int32(pending.count)))
        for point in pending { trackSpool.append(point) }
        slots[slot].pending.removeAll(keepingCapacity: true)
    }

    /// Spools what the slots still hold, each device's last fix included.
    func finishTracks() {
        for slot in slots.indices {
            if var last = slots[slot].last {
                let sequence = last.sequence
                last.sequence = .max
                if slots[slot].pending.last?.sequence == sequence {
                    slots[slot].pending[slots[slot].pending.count - 1] = last
                } else {
                    slots[slot].pending.append(last)
                }
                slots[slot].last = nil
            }
            spoolChunk(slot)
        }
    }

    /// The drawn devices' numbers, in the order they first appeared.
    var drawnDevices: [Int32] {
        slots.map(\.device).sorted()
    }
}
