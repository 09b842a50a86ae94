/// Tracks, read back from the spool chunk by chunk: one `<path>` per chunk,
/// starting where the device's previous chunk ended, so that a track is one
/// unbroken line made of a few pieces.
extension SVGMapWriter {
    mutating func tracks() throws {
        let slots = map.slots
        // Colours go to drawn devices in the order they first appeared.
        var rank = [Int](repeating: 0, count: slots.count)
        for (position, slot) in slots.indices.sorted(by: { slots[$0].device < slots[$1].device }).enumerated() {
            rank[slot] = position
        }
        let stride = map.fixStride
        var previous = [GeofenceMap.TrackPoint?](repeating: nil, count: slots.count)
        var points: [XY] = []
        var drawn = 0
        text("<g id=\"tracks\">\n")
        while let header = try map.trackSpool.next(GeofenceMap.ChunkHeader.self) {
            let slot = Int(map.slotOfDevice[Int(header.device)])
            points.removeAll(keepingCapacity: true)
            if slot >= 0, let start = previous[slot] { points.append(XY(start.longitude, start.latitude)) }
            for _ in 0..<header.count {
                guard let point = try map.trackSpool.next(GeofenceMap.TrackPoint.self) else {
                    throw MapSpoolError("the map's temporary file ends inside a track")
                }
                // Records of a device that gave way to one with a smaller hash are skipped.
                guard slot >= 0, point.sequence == .max || point.sequence & (stride - 1) == 0 else { continue }
                points.append(XY(point.longitude, point.latitude))
                previous[slot] = point
                drawn += 1
            }
            guard slot >= 0, !points.isEmpty else { continue }
            // The chunk's first point is put in the window [west, west + 360); the
            // rest follow it unwrapped (a track may have gone round the world).
            let shift = ((points[0].x - frame.west) / 360).rounded(.down) * -360
            text("<path class=\"track c\(rank[slot] % style.trackColours.count)\" data-device=\"\(header.device)\" d=\"")
            subpathWithCopies(points, shift: shift, closed: false)
            text("\"><title>"); escaped(map.names[Int(header.device)]); text("</title></path>\n")
            try flushIfFull()
        }
        text("</g>\n")
        report.trackFixes = drawn
    }
}
