/// A uniform grid over the envelopes of the regions' parts: the candidate filter
/// in front of every exact test.
///
/// Cells are squares about the size of a typical (median) envelope, so a point
/// meets one or two envelopes rather than a crowd, unless that would take more
/// than about a million cells over the regions' bounding box (regions from Paris
/// to San Francisco): then cells grow to fit. Envelopes that would cover too many
/// cells go to a short list checked for every query instead.
struct RegionGrid: Sendable {
    /// A region part's envelope, stored in every cell it overlaps, with what the
    /// exact test needs, so that a candidate costs no further lookups.
    ///
    /// 28 bytes: the envelope in single precision, rounded outwards, and the
    /// exact test as an index. A point's cell holds several items, read for every
    /// fix; at 72 bytes (the envelope in double precision, a circle's shape in
    /// line) they were a cache line and more each. A looser envelope only lets
    /// more points on to the exact tests, which hold for any point.
    struct Item: Sendable {
        var minX: Float32, minY: Float32, maxX: Float32, maxY: Float32
        var region: Int32
        /// The exact test: a polygon's index in `RegionIndex.polygonBands` (0 or
        /// more), or the bitwise complement of a circle's in `RegionIndex.circles`.
        var test: Int32
        /// Whether the region has other parts (which may share this cell).
        var hasSiblings: Bool

        init(region: Int32, hasSiblings: Bool, envelope: Envelope, test: ExactTest) {
            minX = Self.below(envelope.minX); minY = Self.below(envelope.minY)
            maxX = Self.above(envelope.maxX); maxY = Self.above(envelope.maxY)
            self.region = region
            self.hasSiblings = hasSiblings
            switch test {
            case .polygon(let polygon): self.test = polygon
            case .circle(let circle): self.test = ~circle
            }
        }

        /// The largest single-precision value not above `value`.
        private static func below(_ value: Double) -> Float32 {
            let rounded = Float32(value)
            return Double(rounded) > value ? rounded.nextDown : rounded
        }

        /// The smallest single-precision value not below `value`.
        private static func above(_ value: Double) -> Float32 {
            let rounded = Float32(value)
            return Double(rounded) < value ? rounded.nextUp : rounded
        }

        @inline(__always)
        func contains(_ x: Double, _ y: Double) -> Bool {
            x >= Double(minX) && x <= Double(maxX) && y >= Double(minY) && y <= Double(maxY)
        }

        /// `contains` as 1 or 0, its four comparisons combined without a branch
        /// (whether a cell's envelope holds a fix is as good as random).
        @inline(__always)
        func containment(_ x: Double, _ y: Double) -> Int {
            (x >= Double(minX)).bit & (x <= Double(maxX)).bit & (y >= Double(minY)).bit & (y <= Double(maxY)).bit
        }

        @inline(__always)
        func intersects(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Bool {
            Double(self.minX) <= maxX && Double(self.maxX) >= minX && Double(self.minY) <= maxY && Double(self.maxY) >= minY
        }

        /// The envelope as stored (rounded outwards).
        var envelope: Envelope {
            Envelope(minX: Double(minX), minY: Double(minY), maxX: Double(maxX), maxY: Double(maxY))
        }
    }

    private let originX: Double, originY: Double, inverseSide: Double
    private let columns: Int, rows: Int
    private let buckets: Buckets<Item>
    /// One bit per sub-cell (a quarter of a cell's side): whether any envelope
    /// reaches it. Most fixes are in no envelope, and this small table (in cache,
    /// unlike the cells) tells them so.
    private let coverage: [UInt64]
    private static let subdivision = 4
    /// When the cells over the whole bounding box would be too many (regions in
    /// cities continents apart), only the cells that hold items are kept, found
    /// through an open-addressing table keyed by cell; `coverage` is then unused.
    private let sparseKeys: [Int64]
    private let sparseBuckets: [Int32]
    private static let emptyKey = Int64.min
    private static let maximumDenseCells = 1 << 21
    /// Envelopes too large for the cells.
    let largeItems: [Item]

    /// Builds the grid for `(region, envelope)` pairs.
    init(_ entries: [(region: Int, envelope: Envelope, test: ExactTest)]) {
        var parts: [Int: Int] = [:]
        for entry in entries { parts[entry.region, default: 0] += 1 }
        let items = entries.map {
            Item(region: Int32($0.region), hasSiblings: parts[$0.region]! > 1, envelope: $0.envelope, test: $0.test)
        }
        // The cells are laid out over the envelopes as stored.
        let envelopes = items.map(\.envelope)
        var bounds = Envelope(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
        for envelope in envelopes {
            bounds.minX = min(bounds.minX, envelope.minX); bounds.maxX = max(bounds.maxX, envelope.maxX)
            bounds.minY = min(bounds.minY, envelope.minY); bounds.maxY = max(bounds.maxY, envelope.maxY)
        }
        if items.isEmpty { bounds = Envelope(minX: 0, minY: 0, maxX: 1, maxY: 1) }
        let width = max(bounds.maxX - bounds.minX, 1e-9), height = max(bounds.maxY - bounds.minY, 1e-9)
        let extents = envelopes.map { max($0.maxX - $0.minX, $0.maxY - $0.minY) }.sorted()
        let median = extents.isEmpty ? 1 : extents[extents.count / 2]
        // Cells half a typical envelope wide; a point meets few envelopes per cell.
        let side = max(median / 2, width / Double(1 << 30), height / Double(1 << 30), 1e-9)
        originX = bounds.minX
        originY = bounds.minY
        inverseSide = 1 / side
        let columns = max(1, Int((width * inverseSide).rounded(.up)))
        let rows = max(1, Int((height * inverseSide).rounded(.up)))
        self.columns = columns
        self.rows = rows
        let isSparse = columns * rows > Self.maximumDenseCells
        var sparse: [Int64: [Item]] = [:]
        var large: [Item] = []
        // The items that fit in the cells, with the cells they span.
        var placed: [(item: Item, c0: Int, c1: Int, r0: Int, r1: Int)] = []
        placed.reserveCapacity(items.count)
        for (item, envelope) in zip(items, envelopes) {
            let c0 = Self.cell(envelope.minX, originX, inverseSide, columns), c1 = Self.cell(envelope.maxX, originX, inverseSide, columns)
            let r0 = Self.cell(envelope.minY, originY, inverseSide, rows), r1 = Self.cell(envelope.maxY, originY, inverseSide, rows)
            if (c1 - c0 + 1) * (r1 - r0 + 1) > 256 {
                large.append(item)
                continue
            }
            if isSparse {
                for row in r0...r1 {
                    for column in c0...c1 { sparse[Self.key(column, row), default: []].append(item) }
                }
            } else {
                placed.append((item, c0, c1, r0, r1))
            }
        }
        largeItems = large
        guard !isSparse else {
            var capacity = 16
            while capacity < sparse.count * 2 { capacity *= 2 }
            var keys = [Int64](repeating: Self.emptyKey, count: capacity)
            var slotBuckets = [Int32](repeating: -1, count: capacity)
            var lists: [[Item]] = []
            for (key, list) in sparse.sorted(by: { $0.key < $1.key }) {
                var slot = Self.slot(key, capacity - 1)
                while keys[slot] != Self.emptyKey { slot = (slot + 1) & (capacity - 1) }
                keys[slot] = key
                slotBuckets[slot] = Int32(lists.count)
                lists.append(list)
            }
            sparseKeys = keys
            sparseBuckets = slotBuckets
            buckets = Buckets(lists)
            coverage = []
            return
        }
        sparseKeys = []
        sparseBuckets = []
        // Dense cells filled by counting sort: one list per cell (most of them
        // empty or short) was an allocation each, most of the grid's build time.
        buckets = Buckets(count: columns * rows) { put in
            for entry in placed {
                for row in entry.r0...entry.r1 {
                    for column in entry.c0...entry.c1 { put(row * columns + column, entry.item) }
                }
            }
        }
        let fineColumns = columns * Self.subdivision, fineRows = rows * Self.subdivision
        let fineInverse = inverseSide * Double(Self.subdivision)
        var coverage = [UInt64](repeating: 0, count: (fineColumns * fineRows + 63) / 64)
        for envelope in envelopes {
            let c0 = Self.cell(envelope.minX, originX, fineInverse, fineColumns)
            let c1 = Self.cell(envelope.maxX, originX, fineInverse, fineColumns)
            let r0 = Self.cell(envelope.minY, originY, fineInverse, fineRows), r1 = Self.cell(envelope.maxY, originY, fineInverse, fineRows)
            if (c1 - c0 + 1) * (r1 - r0 + 1) > 256 * Self.subdivision * Self.subdivision { continue }  // a large item
            for row in r0...r1 {
                for column in c0...c1 {
                    let bit = row * fineColumns + column
                    coverage[bit >> 6] |= 1 << UInt64(bit & 63)
                }
            }
        }
        self.coverage = coverage
    }

    @inline(__always)
    private static func key(_ column: Int, _ row: Int) -> Int64 {
        Int64(column) << 32 | Int64(row)
    }

    @inline(__always)
    private static func slot(_ key: Int64, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> 24) & mask
    }

    /// The cell of a coordinate, clamped to the grid.
    @inline(__always)
    private static func cell(_ value: Double, _ origin: Double, _ inverse: Double, _ count: Int) -> Int {
        let index = (value - origin) * inverse
        if !(index > 0) { return 0 }
        if index >= Double(count - 1) { return count - 1 }
        return Int(index)
    }

    /// The items of the point's cell (their envelopes may or may not hold it),
    /// as a range of `cellItems`; empty when no envelope reaches the point's
    /// sub-cell. `largeItems` are not included.
    /// - Complexity: O(1).
    @inline(__always)
    func cellRange(_ x: Double, _ y: Double) -> Range<Int> {
        let bucket = cell(x, y)
        if bucket < 0 { return 0..<0 }
        return Int(buckets.starts[bucket])..<Int(buckets.starts[bucket + 1])
    }

    /// The point's cell (0 ..< `cellCount`), or −1 when no envelope reaches its
    /// sub-cell: the key by which a batch of fixes is put in spatial order.
    /// - Complexity: O(1).
    @inline(__always)
    func cell(_ x: Double, _ y: Double) -> Int {
        let fx = (x - originX) * inverseSide, fy = (y - originY) * inverseSide
        guard fx >= 0, fy >= 0, fx <= Double(columns), fy <= Double(rows) else { return -1 }
        if !sparseKeys.isEmpty {
            let key = Self.key(min(Int(fx), columns - 1), min(Int(fy), rows - 1))
            let mask = sparseKeys.count - 1
            var slot = Self.slot(key, mask)
            while true {
                let found = sparseKeys[slot]
                if found == key { break }
                if found == Self.emptyKey { return -1 }
                slot = (slot + 1) & mask
            }
            return Int(sparseBuckets[slot])
        }
        // The sub-cell, computed the way the coverage was marked (same clamping).
        let fineColumns = columns * Self.subdivision
        let subColumn = min(Int(fx * Double(Self.subdivision)), fineColumns - 1)
        let subRow = min(Int(fy * Double(Self.subdivision)), rows * Self.subdivision - 1)
        let bit = subRow * fineColumns + subColumn
        if coverage[bit >> 6] & (1 << UInt64(bit & 63)) == 0 { return -1 }
        return min(Int(fy), rows - 1) * columns + min(Int(fx), columns - 1)
    }

    /// How many cells `cell(_:_:)` can return.
    var cellCount: Int { buckets.starts.count - 1 }

    /// The most items any cell holds (room for a point's candidates).
    var largestCellCount: Int {
        var largest = 0
        buckets.starts.withUnsafeBufferPointer { starts in
            for cell in 0..<max(0, starts.count - 1) { largest = max(largest, Int(starts[cell + 1] - starts[cell])) }
        }
        return largest
    }

    /// A point's place on a Z-order (Morton) curve through the grid's cells cut
    /// 8 × 8: points near each other in the plane are mostly near each other on
    /// the curve, so fixes sorted by it visit each polygon's tables in a few runs
    /// instead of once per row of cells it spans, and within a cell, fixes in the
    /// same eighth of it (the same bands and raster bytes of its polygons) come
    /// together. `cell` is the point's cell (`cell(_:_:)`, not −1). Sparse grids,
    /// and grids 8,192 or more cells across, give the cell's number. Below 2^32
    /// either way.
    @inline(__always)
    func curvePosition(_ x: Double, _ y: Double, cell: Int) -> UInt64 {
        let fine = 8
        guard sparseKeys.isEmpty, columns < (1 << 16) / fine, rows < (1 << 16) / fine else { return UInt64(cell) }
        let fx = (x - originX) * inverseSide, fy = (y - originY) * inverseSide
        // Clamped as `cell` clamps, so that the sub-cell lies in the point's cell.
        let column = min(Int(fx * Double(fine)), columns * fine - 1), row = min(Int(fy * Double(fine)), rows * fine - 1)
        return Self.spread(UInt64(column)) | Self.spread(UInt64(row)) << 1
    }

    /// The bits of a 32-bit value moved to the even positions.
    @inline(__always)
    private static func spread(_ value: UInt64) -> UInt64 {
        var v = value & 0xFFFF_FFFF
        v = (v | v << 16) & 0x0000_FFFF_0000_FFFF
        v = (v | v << 8) & 0x00FF_00FF_00FF_00FF
        v = (v | v << 4) & 0x0F0F_0F0F_0F0F_0F0F
        v = (v | v << 2) & 0x3333_3333_3333_3333
        v = (v | v << 1) & 0x5555_5555_5555_5555
        return v
    }

    /// Whether only occupied cells are kept (see `sparseKeys`).
    var isSparse: Bool { !sparseKeys.isEmpty }

    /// Every cell's items, one run per cell (see `cellRange`).
    var cellItems: [Item] { buckets.items }

    /// Calls `body` with every item whose envelope meets the box (repeats possible).
    func forEachCandidate(minX boxMinX: Double, minY boxMinY: Double, maxX boxMaxX: Double, maxY boxMaxY: Double,
                          _ body: (Int32) -> Void) {
        for item in largeItems where item.intersects(minX: boxMinX, minY: boxMinY, maxX: boxMaxX, maxY: boxMaxY) {
            body(item.region)
        }
        let c0 = Self.cell(boxMinX, originX, inverseSide, columns), c1 = Self.cell(boxMaxX, originX, inverseSide, columns)
        let r0 = Self.cell(boxMinY, originY, inverseSide, rows), r1 = Self.cell(boxMaxY, originY, inverseSide, rows)
        if (c1 - c0 + 1) * (r1 - r0 + 1) > buckets.items.count + 64 {
            // A box over more cells than there are items: scanning the items is cheaper.
            for item in buckets.items where item.intersects(minX: boxMinX, minY: boxMinY, maxX: boxMaxX, maxY: boxMaxY) {
                body(item.region)
            }
            return
        }
        for row in r0...r1 {
            for column in c0...c1 {
                let bucket: Int
                if sparseKeys.isEmpty {
                    bucket = row * columns + column
                } else {
                    let key = Self.key(column, row)
                    var slot = Self.slot(key, sparseKeys.count - 1)
                    while sparseKeys[slot] != key && sparseKeys[slot] != Self.emptyKey { slot = (slot + 1) & (sparseKeys.count - 1) }
                    if sparseKeys[slot] != key { continue }
                    bucket = Int(sparseBuckets[slot])
                }
                for index in Int(buckets.starts[bucket])..<Int(buckets.starts[bucket + 1])
                where buckets.items[index].intersects(minX: boxMinX, minY: boxMinY, maxX: boxMaxX, maxY: boxMaxY) {
                    body(buckets.items[index].region)
                }
            }
        }
    }
}
