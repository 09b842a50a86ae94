/// Which longitudes a map's data covers, kept in 3,600 bins of 0.1° (constant
/// memory however many fixes), to decide where the map is cut.
///
/// A map of data on both sides of the antimeridian (Fiji to Samoa) must not span
/// the whole world the long way round: the map is cut in the widest stretch of
/// longitude that nothing covers, so that the data lies together. Points mark
/// their bin; a segment between consecutive fixes, or a region's edge, marks every
/// bin it passes (the short way round, as the monitor draws segments), so that the
/// cut never falls across a line. Each bin keeps its lowest and highest longitude,
/// so the window found is exact, not rounded to a bin.
struct LongitudeCoverage {
    static let binCount = 3_600
    private static let binsPerDegree = 10.0

    /// Per bin: the lowest and highest longitude covered, +∞/−∞ when empty.
    private var lowest = [Double](repeating: .infinity, count: binCount)
    private var highest = [Double](repeating: -.infinity, count: binCount)

    @inline(__always)
    private static func bin(_ longitude: Double) -> Int {
        min(max(Int(((longitude + 180) * binsPerDegree).rounded(.down)), 0), binCount - 1)
    }

    private static func lowerEdge(_ bin: Int) -> Double { Double(bin) / binsPerDegree - 180 }
    private static func upperEdge(_ bin: Int) -> Double { Double(bin + 1) / binsPerDegree - 180 }

    /// Marks a longitude (−180…180).
    @inline(__always)
    mutating func add(_ longitude: Double) {
        let bin = Self.bin(longitude)
        if longitude < lowest[bin] { lowest[bin] = longitude }
        if longitude > highest[bin] { highest[bin] = longitude }
    }

    /// Marks the arc from one longitude to another the short way round (east
    /// when they are exactly 180° apart): a track's segment, its start already
    /// marked as the end of the one before (or by `add`).
    mutating func addArc(from start: Double, to end: Double) {
        mark(from: start, to: end, eastward: GeoMath.wrappedDelta(end, from: start) >= 0)
    }

    /// Marks the longitudes between two, going east from the lower: a polygon's
    /// edge, straight in longitude/latitude (RFC 7946 §3.1.1), within −180…180.
    mutating func addEdge(from start: Double, to end: Double) {
        add(start)
        mark(from: start, to: end, eastward: end >= start)
    }

    /// Marks `end` and the bins from `start`'s to `end`'s (not `start` itself).
    private mutating func mark(from start: Double, to end: Double, eastward: Bool) {
        add(end)
        var bin = Self.bin(start)
        let last = Self.bin(end)
        // Most steps stay in their bin (0.1°); only a step into another bin marks more.
        while bin != last {
            let next = eastward ? (bin + 1) % Self.binCount : (bin + Self.binCount - 1) % Self.binCount
            // The line leaves `bin` through one edge and enters `next` through the other.
            if eastward {
                highest[bin] = Self.upperEdge(bin)
                lowest[next] = min(lowest[next], Self.lowerEdge(next))
                if next != last { highest[next] = Self.upperEdge(next) }
            } else {
                lowest[bin] = Self.lowerEdge(bin)
                highest[next] = max(highest[next], Self.upperEdge(next))
                if next != last { lowest[next] = Self.lowerEdge(next) }
            }
            bin = next
        }
    }

    /// Marks every longitude (a region around a pole).
    mutating func addAll() {
        for bin in 0..<Self.binCount {
            lowest[bin] = Self.lowerEdge(bin)
            highest[bin] = Self.upperEdge(bin)
        }
    }

    /// Whether nothing was marked.
    var isEmpty: Bool { !highest.contains { $0 > -.infinity } }

    /// The window of longitude the data lies in: `west` in −180…180 and `east`
    /// with west ≤ east ≤ west + 360 (beyond 180 when the data crosses the
    /// antimeridian), cut in the widest uncovered stretch; when two stretches are
    /// equally wide, the one holding the antimeridian. `nil` when nothing was marked.
    /// - Complexity: O(bins).
    func window() -> (west: Double, east: Double)? {
        let count = Self.binCount
        let covered = highest.map { $0 > -.infinity }
        guard let firstCovered = covered.firstIndex(of: true) else { return nil }
        guard covered.contains(false) else { return (-180, 180) }
        // Walk once around the circle from a covered bin, measuring each empty run.
        var best: (start: Int, length: Int, holdsAntimeridian: Bool)?
        var runStart = -1
        for step in 1...count {
            let bin = (firstCovered + step) % count
            if !covered[bin] {
                if runStart < 0 { runStart = bin }
                continue
            }
            if runStart >= 0 {
                let length = (bin - runStart + count) % count
                let holds = runStart > bin || runStart == 0
                if best == nil || length > best!.length || (length == best!.length && holds && !best!.holdsAntimeridian) {
                    best = (runStart, length, holds)
                }
                runStart = -1
            }
        }
        guard let gap = best else { return (-180, 180) }
        let westBin = (gap.start + gap.length) % count
        let eastBin = (gap.start + count - 1) % count
        let west = lowest[westBin]
        var east = highest[eastBin]
        if east < west { east += 360 }
        return (west, east)
    }
}
