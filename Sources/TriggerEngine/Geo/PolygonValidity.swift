/// A fast proof that polygons are valid as GEOS's `isValid` means it (OGC
/// simple features), for the common case: rings that meet nowhere.
///
/// When no two edges of any rings meet except consecutive edges at their vertex
/// (`SimplicitySweep`), every ring is simple and any two rings are disjoint, so
/// validity comes down to how they nest: each hole inside its shell, no hole inside
/// another, and no polygon's shell inside another polygon's interior. One vertex
/// of a ring tells where the whole ring lies, so each is one point-in-ring test.
///
/// A region of one ring that winds once round a point it can all see is
/// proven simple without the sweep (`isStarShaped`).
///
/// The answer is one-sided: `true` is a proof; `false` means "not proven" (a
/// touch, a repeated position, an undecidable orientation, a nesting fault, or
/// more nesting tests than `budget` allows) and the caller asks GEOS, whose
/// verdict and reason are the reference. Tests hold the two to the same answers.
enum PolygonValidity {
    /// Whether the polygons (`[polygon][ring][position]`, rings closed with at
    /// least 4 positions, coordinates finite) are certainly valid as one region.
    /// - Complexity: O(n log n) for n vertices, plus at most about 16 n edge
    ///   visits for the nesting tests.
    static func isCertainlyValid(_ polygons: [[[XY]]]) -> Bool {
        // One ring: simple is valid, and most compact rings prove it in one pass.
        if polygons.count == 1, polygons[0].count == 1, isStarShaped(polygons[0][0]) { return true }
        let rings = polygons.flatMap { $0 }
        guard SimplicitySweep.isSimple(rings) else { return false }
        var budget = 16 * rings.reduce(0) { $0 + $1.count } + 100_000
        for rings in polygons where rings.count > 1 {
            for hole in rings.dropFirst() {
                guard location(hole[0], in: rings[0], budget: &budget) == .inside else { return false }
            }
            let holes = Array(rings.dropFirst())
            let nested = overlappingPairs(holes.map(envelope), budget: &budget) { i, j, budget in
                location(holes[j][0], in: holes[i], budget: &budget) == .outside
                    && location(holes[i][0], in: holes[j], budget: &budget) == .outside
            }
            guard nested else { return false }
        }
        guard polygons.count > 1 else { return true }
        return overlappingPairs(polygons.map { envelope($0[0]) }, budget: &budget) { i, j, budget in
            isOutsideInterior(polygons[j][0][0], of: polygons[i], budget: &budget)
                && isOutsideInterior(polygons[i][0][0], of: polygons[j], budget: &budget)
        }
    }

    /// Where a point lies against a closed ring, by GEOS's ray-crossing rule.
    enum Location {
        case inside, outside, undecided
    }

    /// The point against the ring; `undecided` on the boundary, when double
    /// precision cannot tell, or when `budget` (edges to visit) runs out.
    static func location(_ point: XY, in ring: [XY], budget: inout Int) -> Location {
        budget -= ring.count
        guard budget >= 0 else { return .undecided }
        var crossings = 0
        for index in 0..<(ring.count - 1) {
            let edge = PlanarPolygon.Edge(ax: ring[index].x, ay: ring[index].y, bx: ring[index + 1].x, by: ring[index + 1].y)
            switch PlanarPolygon.crossing(edge, point.x, point.y) {
            case .crosses: crossings += 1
            case .misses: continue
            case .onBoundary, .undecided: return .undecided
            }
        }
        return crossings & 1 == 1 ? .inside : .outside
    }

    /// Whether `point` is outside the interior of the polygon `rings`: outside its
    /// shell, or inside one of its holes.
    private static func isOutsideInterior(_ point: XY, of rings: [[XY]], budget: inout Int) -> Bool {
        switch location(point, in: rings[0], budget: &budget) {
        case .outside: return true
        case .undecided: return false
        case .inside:
            for hole in rings.dropFirst() {
                switch location(point, in: hole, budget: &budget) {
                case .inside: return true
                case .outside: continue
                case .undecided: return false
                }
            }
            return false
        }
    }

    /// Calls `test` for every pair of envelopes that overlap (found by sorting on
    /// the west edge); `false` as soon as a test fails or the pairs visited use up
    /// the budget.
    private static func overlappingPairs(_ envelopes: [Envelope], budget: inout Int,
                                         _ test: (Int, Int, inout Int) -> Bool) -> Bool {
        let order = envelopes.indices.sorted { envelopes[$0].minX < envelopes[$1].minX }
        for (position, i) in order.enumerated() {
            for j in order[(position + 1)...] {
                if envelopes[j].minX > envelopes[i].maxX { break }
                budget -= 1
                guard budget >= 0 else { return false }
                let a = envelopes[i], b = envelopes[j]
                if a.minY > b.maxY || b.minY > a.maxY { continue }
                guard test(i, j, &budget) else { return false }
            }
        }
        return true
    }

    private static func envelope(_ ring: [XY]) -> Envelope {
        var envelope = Envelope(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
        for point in ring {
            envelope.minX = min(envelope.minX, point.x)
            envelope.maxX = max(envelope.maxX, point.x)
            envelope.minY = min(envelope.minY, point.y)
            envelope.maxY = max(envelope.maxY, point.y)
        }
        return envelope
    }
}
