/// What one pass over a closed ring tells about its shape: the average of its
/// vertices, its signed area and area centroid, its envelope. The one-pass
/// proof of simplicity guesses its centres from them, and the kernel search
/// takes its inner side and its bounds from them.
struct RingMeasures {
    /// The average of the vertices (the closing repeat left out).
    let average: XY
    /// Twice the signed area (positive counterclockwise), from the first vertex.
    let doubleArea: Double
    /// The centroid of the area; `nil` for a ring of no area.
    let centroid: XY?
    let envelope: Envelope

    /// Measures a closed ring (first position repeated last, at least 4 positions).
    init(_ ring: UnsafeBufferPointer<XY>) {
        let count = ring.count - 1
        var sumX = 0.0, sumY = 0.0, area = 0.0, areaX = 0.0, areaY = 0.0
        var envelope = Envelope(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
        // Area terms relative to the first vertex, to keep their rounding small.
        let origin = ring[0]
        for index in 0..<count {
            let a = ring[index], b = ring[index + 1]
            sumX += a.x
            sumY += a.y
            envelope.minX = min(envelope.minX, a.x); envelope.maxX = max(envelope.maxX, a.x)
            envelope.minY = min(envelope.minY, a.y); envelope.maxY = max(envelope.maxY, a.y)
            let ax = a.x - origin.x, ay = a.y - origin.y, bx = b.x - origin.x, by = b.y - origin.y
            let cross = ax * by - bx * ay
            area += cross
            areaX += (ax + bx) * cross
            areaY += (ay + by) * cross
        }
        average = XY(sumX / Double(count), sumY / Double(count))
        doubleArea = area
        centroid = area != 0 && area.isFinite ? XY(origin.x + areaX / (3 * area), origin.y + areaY / (3 * area)) : nil
        self.envelope = envelope
    }
}
