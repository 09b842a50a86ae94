/// A uniform grid over the envelopes of the regions' parts: the candidate filter
/// in front of every exact test. Envelopes that would cover too many cells go to a
/// short list checked for every query instead.
struct RegionGrid {
    /// A region part's envelope, stored in every cell it overlaps.
    struct Item {
        var region: Int32
        var minX: Float64, minY: Float64, maxX: Float64, maxY: Float64

        @inline(__always)
        func contains(_ x: Double, _ y: Double) -> Bool {
            x >= minX && x <= maxX && y >= minY && y <= maxY
        }

        @inline(__always)
        func intersects(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Bool {
            self.minX <= maxX && self.maxX >= minX && self.minY <= maxY && self.maxY >= minY
        }
    }

    private let minX: Double, minY: Double
    private let inverseWidth: Double, inverseHeight: Double
    private let columns: Int, rows: Int
    private let cellStarts: [Int32]
    private let cellItems: [Item]
    /// Envelopes too large for the cells.
    let largeItems: [Item]

    /// Builds the grid for `(region, envelope)` pairs.
    init(_ entries: [(region: Int, envelope: Envelope)]) {
        let items = entries.map {
            Item(region: Int32($0.region), minX: $0.envelope.minX, minY: $0.envelope.minY,
                 maxX: $0.envelope.maxX, maxY: $0.envelope.maxY)
        }
        var bounds = Envelope(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
        for item in items {
            bounds.minX = min(bounds.minX, item.minX); bounds.maxX = max(bounds.maxX, item.maxX)
            bounds.minY = min(bounds.minY, item.minY); bounds.maxY = max(bounds.maxY, item.maxY)
        }
        if items.isEmpty { bounds = Envelope(minX: 0, minY: 0, maxX: 1, maxY: 1) }
        // About two cells per envelope, square in degrees, at most 2048 × 2048.
        let width = max(bounds.maxX - bounds.minX, 1e-9), height = max(bounds.maxY - bounds.minY, 1e-9)
        let side = max((width * height / Double(max(1, 2 * items.count))).squareRoot(), 1e-9)
        let columns = max(1, min(2048, Int((width / side).rounded(.up))))
        let rows = max(1, min(2048, Int((height / side).rounded(.up))))
        minX = bounds.minX
        minY = bounds.minY
        inverseWidth = Double(columns) / width
        inverseHeight = Double(rows) / height
        self.columns = columns
        self.rows = rows
        var perCell = [[Item]](repeating: [], count: columns * rows)
        var large: [Item] = []
        for item in items {
            let c0 = Self.cell(item.minX, bounds.minX, inverseWidth, columns)
            let c1 = Self.cell(item.maxX, bounds.minX, inverseWidth, columns)
            let r0 = Self.cell(item.minY, bounds.minY, inverseHeight, rows)
            let r1 = Self.cell(item.maxY, bounds.minY, inverseHeight, rows)
            if (c1 - c0 + 1) * (r1 - r0 + 1) > 1024 {
                large.append(item)
                continue
            }
            for row in r0...r1 {
                for column in c0...c1 { perCell[row * columns + column].append(item) }
            }
        }
        let buckets = Buckets(perCell)
        cellStarts = buckets.starts
        cellItems = buckets.items
        largeItems = large
    }

    @inline(__always)
    private static func cell(_ value: Double, _ origin: Double, _ inverse: Double, _ count: Int) -> Int {
        let index = (value - origin) * inverse
        if !(index > 0) { return 0 }
        if index >= Double(count - 1) { return count - 1 }
        return Int(index)
    }

    /// Calls `body` with every item (region part) whose envelope holds (x, y); a
    /// region appears once for each of its parts that does.
    /// - Complexity: O(items in the point's cell + large items).
    @inline(__always)
    func forEachCandidate(_ x: Double, _ y: Double, _ body: (Int32) -> Void) {
        for item in largeItems where item.contains(x, y) { body(item.region) }
        let fx = (x - minX) * inverseWidth, fy = (y - minY) * inverseHeight
        guard fx >= 0, fy >= 0, fx <= Double(columns), fy <= Double(rows) else { return }
        let cell = min(Int(fy), rows - 1) * columns + min(Int(fx), columns - 1)
        cellItems.withUnsafeBufferPointer { items in
            for index in Int(cellStarts[cell])..<Int(cellStarts[cell + 1]) where items[index].contains(x, y) {
                body(items[index].region)
            }
        }
    }

    /// Calls `body` with every item whose envelope meets the box (repeats possible).
    func forEachCandidate(minX boxMinX: Double, minY boxMinY: Double, maxX boxMaxX: Double, maxY boxMaxY: Double,
                          _ body: (Int32) -> Void) {
        for item in largeItems where item.intersects(minX: boxMinX, minY: boxMinY, maxX: boxMaxX, maxY: boxMaxY) {
            body(item.region)
        }
        let c0 = Self.cell(boxMinX, minX, inverseWidth, columns), c1 = Self.cell(boxMaxX, minX, inverseWidth, columns)
        let r0 = Self.cell(boxMinY, minY, inverseHeight, rows), r1 = Self.cell(boxMaxY, minY, inverseHeight, rows)
        for row in r0...r1 {
            for column in c0...c1 {
                let cell = row * columns + column
                for index in Int(cellStarts[cell])..<Int(cellStarts[cell + 1])
                where cellItems[index].intersects(minX: boxMinX, minY: boxMinY, maxX: boxMaxX, maxY: boxMaxY) {
                    body(cellItems[index].region)
                }
            }
        }
    }
}
