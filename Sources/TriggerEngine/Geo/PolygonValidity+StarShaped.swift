/// A proof of simplicity in one pass for rings that go once round a point
/// they can all see: convex shapes, and most compact ones (a neighbourhood, a
/// jagged star), where the plane sweep cost about 150 ns per vertex.
///
/// If every edge turns strictly the same way round a point `c` (exact
/// orientations), each edge lies in the sector between the rays from `c`
/// through its ends, a sector narrower than a half-turn. When the ring goes
/// round `c` exactly once, the vertices come in strictly increasing angle, so
/// the sectors of two edges share at most `c`, which no edge holds (its
/// orientation would be 0), or the ray of the vertex two consecutive edges
/// share, where each edge has only that vertex: the ring is simple. A ring
/// that winds twice (a pentagram) turns the same way at every edge too, hence
/// the count of turns.
///
/// One-sided like the rest of `PolygonValidity`: `false` only means "not
/// proven here", and the caller sweeps.
extension PolygonValidity {
    /// Whether the closed ring (first position repeated last) is certainly
    /// simple because it winds exactly once round a point, turning strictly the
    /// same way at every edge: the average of its vertices, the centroid of its
    /// area, the centre of its envelope, or else a point found inside its kernel
    /// (`KernelSearch`).
    /// - Complexity: O(n) for n vertices.
    static func isStarShaped(_ ring: [XY]) -> Bool {
        let count = ring.count - 1
        guard count >= 3 else { return false }
        return ring.withUnsafeBufferPointer { ring in
            let measures = RingMeasures(ring)
            let envelope = measures.envelope
            let guesses = [measures.average, measures.centroid,
                           XY((envelope.minX + envelope.maxX) / 2, (envelope.minY + envelope.maxY) / 2)]
            if guesses.contains(where: { $0.map { windsOnce(ring, around: $0) } ?? false }) { return true }
            // A jagged star's kernel can be too small for those to find: look for it.
            return KernelSearch(ring, measures: measures)?.interiorPoint(where: { windsOnce(ring, around: $0) }) != nil
        }
    }

    /// Whether the ring turns strictly the same way round `centre` at every
    /// edge and goes round it exactly once.
    static func windsOnce(_ ring: UnsafeBufferPointer<XY>, around centre: XY) -> Bool {
        let count = ring.count - 1
        guard let first = GeoMath.orientation(ring[0].x, ring[0].y, ring[1].x, ring[1].y, centre.x, centre.y),
              first != 0 else { return false }
        // Quarter-turns (exact: each vertex's quadrant round the centre comes
        // from the signs of two subtractions, which rounding keeps).
        var quarters = 0
        var quadrant = Self.quadrant(ring[0], around: centre)
        for index in 0..<count {
            let a = ring[index], b = ring[index + 1]
            guard GeoMath.orientation(a.x, a.y, b.x, b.y, centre.x, centre.y) == first else { return false }
            let next = Self.quadrant(b, around: centre)
            // A step of less than a half-turn moves 0, 1 or 2 quadrants on.
            quarters += (first > 0 ? next - quadrant : quadrant - next) & 3
            quadrant = next
        }
        // Back where it started: the quarters add up to 4 per turn round the centre.
        return quarters == 4
    }

    /// The quadrant of `point` round `centre`, half-open counterclockwise from
    /// east: 0 is [0°, 90°), 1 [90°, 180°), 2 [180°, 270°), 3 [270°, 360°).
    /// `point` is not `centre` (an edge through the centre is not turning round it).
    @inline(__always)
    private static func quadrant(_ point: XY, around centre: XY) -> Int {
        // The sign of a rounded difference is the sign of the exact one.
        let dx = point.x - centre.x, dy = point.y - centre.y
        if dy >= 0 && dx > 0 { return 0 }
        if dx <= 0 && dy > 0 { return 1 }
        if dy <= 0 && dx < 0 { return 2 }
        return 3
    }
}
