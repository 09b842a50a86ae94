/// A coarse raster over a polygon region's envelope whose cells say "wholly
/// inside", "wholly outside" or "boundary": most points are answered by one byte,
/// and only points in boundary cells go on to the edges.
///
/// A cell is wholly inside or outside only when no edge comes within `margin`
/// (10⁻⁹°, about 0.1 mm, far above the rounding of a cell index) of the closed
/// cell; then every point of the cell lies in the same face as its centre, whose
/// exact answer (the same as GEOS's) the cell keeps. A centre that floating
/// point cannot place makes its cell a boundary cell.
struct PolygonRaster {
    static let outside: UInt8 = 0, inside: UInt8 = 1, boundary: UInt8 = 2
    static let margin = 1e-9

    /// Where the raster is and how big: plain data, kept beside the bands.
    struct Layout {
        var minX: Double, minY: Double
        var inverseWidth: Double, inverseHeight: Double
        var size: Int
        /// Offset of this raster's cells in a shared table.
        var offset = 0

        /// The cell of a point within the envelope (clamped at the edges).
        @inline(__always)
        func cell(_ x: Double, _ y: Double) -> Int {
            let column = min(max(Int((x - minX) * inverseWidth), 0), size - 1)
            let row = min(max(Int((y - minY) * inverseHeight), 0), size - 1)
            return row * size + column
        }
    }

    let layout: Layout
    /// `size × size` cells, row by row from the south-west corner.
    let cells: [UInt8]

    /// Classifies the cells of `envelope` for a polygon with these edges;
    /// `covers` is the polygon's exact test.
    init(envelope: Envelope, edges: [PlanarPolygon.Edge], covers: (Double, Double) -> Bool?) {
        let size = min(32, max(4, Int(Double(edges.count).squareRoot() * 2)))
        let width = max(envelope.maxX - envelope.minX, 1e-12), height = max(envelope.maxY - envelope.minY, 1e-12)
        let layout = Layout(minX: envelope.minX, minY: envelope.minY, inverseWidth: Double(size) / width,
                            inverseHeight: Double(size) / height, size: size)
        var cells = [UInt8](repeating: Self.outside, count: size * size)
        var classified = [Bool](repeating: false, count: size * size)
        for edge in edges {
            // Every cell the edge's box, grown by the margin, reaches.
            let first = layout.cell(min(edge.ax, edge.bx) - Self.margin, min(edge.ay, edge.by) - Self.margin)
            let last = layout.cell(max(edge.ax, edge.bx) + Self.margin, max(edge.ay, edge.by) + Self.margin)
            for row in (first / size)...(last / size) {
                for column in (first % size)...(last % size) {
                    cells[row * size + column] = Self.boundary
                    classified[row * size + column] = true
                }
            }
        }
        let cellWidth = width / Double(size), cellHeight = height / Double(size)
        for row in 0..<size {
            for column in 0..<size where !classified[row * size + column] {
                let x = envelope.minX + (Double(column) + 0.5) * cellWidth
                let y = envelope.minY + (Double(row) + 0.5) * cellHeight
                switch covers(x, y) {
                case true?: cells[row * size + column] = Self.inside
                case false?: cells[row * size + column] = Self.outside
                case nil: cells[row * size + column] = Self.boundary
                }
            }
        }
        self.layout = layout
        self.cells = cells
    }
}
