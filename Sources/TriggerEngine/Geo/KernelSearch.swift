/// Looks for a point inside the kernel of a ring: the points that see the whole
/// ring, where every edge's line has them on its inner side. The kernel is the
/// intersection of those half-planes, so a point in it is a small linear
/// program (Seidel's randomized incremental algorithm, expected O(n)).
///
/// Floating point throughout: the point is only a candidate, which
/// `PolygonValidity.windsOnce` then checks with exact orientations.
struct KernelSearch {
    /// Half-planes `normal · p ≥ offset`, one per edge, in a fixed shuffled order; the
    /// search stays within the ring's envelope.
    private var normals: [XY] = [], offsets: [Double] = []
    private let envelope: Envelope
    /// Half-plane visits allowed per edge and direction (see `extreme(towards:)`).
    private let visitsPerEdge: Int

    /// The half-planes of a closed ring, its inner side found from its signed
    /// area; `nil` for a ring of no area. `visitsPerEdge` bounds the work of
    /// each search (16: about 8 times what a random order is expected to take).
    init?(_ ring: UnsafeBufferPointer<XY>, visitsPerEdge: Int = 16) {
        self.init(ring, measures: RingMeasures(ring), visitsPerEdge: visitsPerEdge)
    }

    /// The same, with the ring's measures already taken.
    init?(_ ring: UnsafeBufferPointer<XY>, measures: RingMeasures, visitsPerEdge: Int = 16) {
        let count = ring.count - 1
        guard measures.doubleArea != 0, measures.doubleArea.isFinite else { return nil }
        self.visitsPerEdge = visitsPerEdge
        envelope = measures.envelope
        let side = measures.doubleArea > 0 ? 1.0 : -1.0  // counterclockwise: inside is on the left
        normals.reserveCapacity(count)
        offsets.reserveCapacity(count)
        for index in 0..<count {
            let a = ring[index], b = ring[index + 1]
            let normal = XY(-(b.y - a.y) * side, (b.x - a.x) * side)
            normals.append(normal)
            offsets.append(normal.x * a.x + normal.y * a.y)
        }
        // A fixed shuffle (the algorithm's expected time needs some order that
        // does not follow the ring round; any one gives the same kernel).
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for index in stride(from: count - 1, to: 0, by: -1) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let other = Int((state >> 33) % UInt64(index + 1))
            normals.swapAt(index, other)
            offsets.swapAt(index, other)
        }
    }

    /// The first point inside the kernel that `accept` takes: the midpoint of
    /// the kernel's extreme points east and west, or failing that (both ends on
    /// one edge of the kernel), the average of those and its extreme points
    /// north and south, found only then. `nil` when neither is accepted, the
    /// kernel is empty, or the search loses its way in rounding.
    func interiorPoint(where accept: (XY) -> Bool) -> XY? {
        guard let east = extreme(towards: XY(1, 0)), let west = extreme(towards: XY(-1, 0)) else { return nil }
        let middle = XY(east.x / 2 + west.x / 2, east.y / 2 + west.y / 2)
        if accept(middle) { return middle }
        guard let north = extreme(towards: XY(0, 1)), let south = extreme(towards: XY(0, -1)) else { return nil }
        let average = XY(middle.x / 2 + north.x / 4 + south.x / 4, middle.y / 2 + north.y / 4 + south.y / 4)
        return accept(average) ? average : nil
    }

    /// The kernel's point farthest towards `direction` (within the envelope);
    /// `nil` past `visitsPerEdge` half-plane visits per edge. In a random order
    /// the search expects about 2 per edge; the order is fixed, so a ring built
    /// against it could make it quadratic, and the budget sends that ring to the sweep.
    private func extreme(towards direction: XY) -> XY? {
        var budget = visitsPerEdge * normals.count + 64
        // Start at the envelope's corner farthest that way; each half-plane that
        // cuts the current point off moves it onto that half-plane's line.
        var point = XY(direction.x >= 0 ? envelope.maxX : envelope.minX, direction.y >= 0 ? envelope.maxY : envelope.minY)
        for index in normals.indices {
            let normal = normals[index]
            guard normal.x * point.x + normal.y * point.y < offsets[index] else { continue }
            // On the line normal · p = offset: p = base + t · along.
            let scale = normal.x * normal.x + normal.y * normal.y
            guard scale > 0 else { return nil }
            let base = XY(normal.x * offsets[index] / scale, normal.y * offsets[index] / scale)
            let along = XY(-normal.y, normal.x)
            var low = -Double.infinity, high = Double.infinity
            // The earlier half-planes and the envelope bound t.
            func bound(_ n: XY, _ offset: Double) {
                let rate = n.x * along.x + n.y * along.y, slack = offset - (n.x * base.x + n.y * base.y)
                if rate > 0 { low = max(low, slack / rate) } else if rate < 0 { high = min(high, slack / rate) }
                else if slack > 0 { low = .infinity }
            }
            budget -= index + 4
            guard budget >= 0 else { return nil }
            for earlier in 0..<index { bound(normals[earlier], offsets[earlier]) }
            bound(XY(1, 0), envelope.minX); bound(XY(-1, 0), -envelope.maxX)
            bound(XY(0, 1), envelope.minY); bound(XY(0, -1), -envelope.maxY)
            guard low <= high else { return nil }
            let gain = direction.x * along.x + direction.y * along.y
            let t = gain > 0 ? high : (gain < 0 ? low : (low.isFinite ? low : high))
            guard t.isFinite else { return nil }
            point = XY(base.x + t * along.x, base.y + t * along.y)
        }
        return point
    }
}
