/// A coarse raster over a polygon region's envelope whose cells say "wholly
/// inside", "wholly outside" or "boundary": most points are answered by one byte,
/// and only points in boundary cells go on to the edges.
///
/// Cells take two bits each, four to a byte (`value(ofCell:in:)`): on 10,000
/// jagged polygons the rasters were 23 MB at a byte a cell, and the point's
/// byte was a cache miss for most tests; at 6 MB they stay in cache.
///
/// A cell is wholly inside or outside only when no edge comes within `margin`
/// (10⁻⁹°, about 0.1 mm, far above the rounding of a cell index) of the closed
/// cell; then every point of the cell lies in the same face, and the cell keeps
/// the exact answer (the same as GEOS's) for a point on its row's centre line.
enum PolygonRaster {
    static let outside: UInt8 = 0, inside: UInt8 = 1, boundary: UInt8 = 2
    static let margin = 1e-9

    /// Where a polygon's raster is and how big: plain data, kept beside the bands.
    struct Layout: Sendable {
        var minX: Double, minY: Double
        var inverseWidth: Double, inverseHeight: Double
        var size: Int
        /// Offset in bytes of this raster's packed cells in the shared table.
        var offset = 0

        static let empty = Layout(minX: 0, minY: 0, inverseWidth: 0, inverseHeight: 0, size: 1)

        /// The column of a longitude (clamped to the raster).
        @inline(__always)
        func column(_ x: Double) -> Int { min(max(Int((x - minX) * inverseWidth), 0), size - 1) }

        /// The row of a latitude (clamped to the raster).
        @inline(__always)
        func row(_ y: Double) -> Int { min(max(Int((y - minY) * inverseHeight), 0), size - 1) }

        /// The cell of a point within the envelope (clamped at the edges).
        @inline(__always)
        func cell(_ x: Double, _ y: Double) -> Int { row(y) * size + column(x) }

        /// Bytes of the packed cells in the shared table.
        var byteCount: Int { (size * size + 3) / 4 }
    }

    /// The class (`outside`, `inside` or `boundary`) of cell `cell` of the raster
    /// whose packed cells start at `raster`.
    @inline(__always)
    static func value(ofCell cell: Int, in raster: UnsafePointer<UInt8>) -> UInt8 {
        (raster[cell >> 2] >> UInt8(truncatingIfNeeded: (cell & 3) << 1)) & 3
    }

    /// The raster of a polygon with this many edges over `envelope` (offset 0
    /// until the index places it); it has `size × size` cells.
    static func layout(envelope: Envelope, edgeCount: Int) -> Layout {
        let size = min(48, max(4, Int(Double(edgeCount).squareRoot() * 3)))
        let width = max(envelope.maxX - envelope.minX, 1e-12), height = max(envelope.maxY - envelope.minY, 1e-12)
        return Layout(minX: envelope.minX, minY: envelope.minY, inverseWidth: Double(size) / width,
                      inverseHeight: Double(size) / height, size: size)
    }

    /// Classifies the cells of a polygon's raster (`layout`, over `envelope`)
    /// and writes them, packed, to `packed`, which has room for `byteCount` bytes.
    ///
    /// Boundary cells: in each row an edge spans, every cell the edge's piece
    /// within the row's latitudes (both grown by the margin) reaches in longitude.
    /// The others, row by row: the edges that cross the row's centre line under
    /// GEOS's half-open rule (`RayCrossingCounter`) each lie wholly east or west
    /// of such a cell (their pieces in the row miss it), so the parity of those
    /// east of it is the ray-crossing count for any point of the cell on that
    /// line: no point-in-polygon test per cell. The pieces' longitudes are
    /// interpolated, then grown by a bound on their rounding: a cell is only
    /// ever marked boundary in excess, never missed.
    /// - Complexity: O(cells + edges × rows each spans).
    static func fill(_ layout: Layout, envelope: Envelope, parts: [Region.Polygon], packed: UnsafeMutablePointer<UInt8>) {
        let size = layout.size
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: size * size) { cells in
            classify(layout, envelope: envelope, parts: parts, cells: cells.baseAddress!)
            // Four cells (0, 1 or 2: two bits each) to a byte, a word at a time:
            // cell k's bits move from bit 8k to bit 2k.
            let whole = size * size / 4
            let words = UnsafeRawPointer(cells.baseAddress!)
            for byte in 0..<whole {
                let word = UInt32(littleEndian: words.loadUnaligned(fromByteOffset: 4 * byte, as: UInt32.self))
                packed[byte] = UInt8(truncatingIfNeeded: word | word >> 6 | word >> 12 | word >> 18)
            }
            if whole < layout.byteCount {
                var value: UInt8 = 0
                for cell in (4 * whole)..<(size * size) { value |= cells[cell] << UInt8(2 * (cell - 4 * whole)) }
                packed[whole] = value
            }
        }
    }

    /// `fill`'s classification, a byte a cell, into `raster` (`size × size` bytes).
    private static func classify(_ layout: Layout, envelope: Envelope, parts: [Region.Polygon],
                                 cells raster: UnsafeMutablePointer<UInt8>) {
        let size = layout.size
        let height = max(envelope.maxY - envelope.minY, 1e-12)
        let cellHeight = height / Double(size)
        // One byte per cell: `boundary`, and bit 7 flipped once per edge crossing
        // the row's centre line whose grown box starts in that column (the box
        // then lies in that column and east). Only the parity of those matters.
        raster.initialize(repeating: outside, count: size * size)
        // The latitudes of the row borders and centre lines, once.
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * size + 1) { lines in
            let borders = lines.baseAddress!, centres = borders + size + 1
            for row in 0...size { borders[row] = envelope.minY + Double(row) * cellHeight }
            for row in 0..<size { centres[row] = envelope.minY + (Double(row) + 0.5) * cellHeight }
            PlanarPolygon.forEachEdge(of: parts) { edge in markBoundary(edge, layout, borders, centres, raster) }
            for row in 0..<size {
                let cellsOfRow = raster + row * size
                // The centre line must map back to this row for its answers to be the row's.
                guard layout.row(centres[row]) == row else {
                    for column in 0..<size { cellsOfRow[column] = boundary }
                    continue
                }
                // East to west: crossings whose box starts east of a cell that no
                // box reaches lie wholly east of it (the others wholly west).
                var parity: UInt8 = 0
                for column in stride(from: size - 1, through: 0, by: -1) {
                    let value = cellsOfRow[column]
                    cellsOfRow[column] = value & boundary != 0 ? boundary : parity
                    parity ^= value >> 7
                }
            }
        }
    }

    /// Marks the cells one edge comes near, and flips the crossing bit where it
    /// crosses a row's centre line (see `append`).
    @inline(__always)
    private static func markBoundary(_ edge: PlanarPolygon.Edge, _ layout: Layout, _ borders: UnsafeMutablePointer<Double>,
                                     _ centres: UnsafeMutablePointer<Double>, _ raster: UnsafeMutablePointer<UInt8>) {
        let size = layout.size
        let lowY = min(edge.ay, edge.by), highY = max(edge.ay, edge.by)
        let westX = min(edge.ax, edge.bx), eastX = edge.maxX
        let row0 = layout.row(lowY - margin), row1 = layout.row(highY + margin)
        // A bound on the rounding of the longitudes computed below (a few units
        // in the last place of the coordinates), far below the margin.
        let rounding = 4e-15 * (abs(edge.ax) + abs(edge.bx) + abs(edge.ay) + abs(edge.by) + 1)
        // Longitude per latitude along an edge spanning rows (a horizontal
        // edge near a row's border spans two, but its piece is all of it).
        let spans = row0 < row1 && lowY < highY
        let slope = spans ? (edge.bx - edge.ax) / (edge.by - edge.ay) : 0
        for row in row0...row1 {
            // Only the cells the edge's piece within this row (grown by the
            // margin) can come near, not its whole box: a long diagonal edge
            // leaves most of its box wholly inside or outside, so fewer points
            // go on to the edges.
            var west = westX, east = eastX
            if spans {
                let slabLow = max(lowY, borders[row] - margin)
                let slabHigh = min(highY, borders[row + 1] + margin)
                let x0 = edge.ax + (slabLow - edge.ay) * slope, x1 = edge.ax + (slabHigh - edge.ay) * slope
                west = max(westX, min(x0, x1) - rounding)
                east = min(eastX, max(x0, x1) + rounding)
            }
            let column0 = layout.column(west - margin), column1 = layout.column(east + margin)
            let cellsOfRow = raster + row * size
            for column in column0...max(column0, column1) { cellsOfRow[column] |= boundary }
            let centre = centres[row]
            // GEOS's half-open rule, (a above and b not) or (b above and a not),
            // as one comparison of the two: no branch to mispredict per row.
            let crosses = (edge.ay > centre) != (edge.by > centre)
            cellsOfRow[column0] ^= (crosses ? 1 : 0) << 7
        }
    }
}
