/// How to test one region exactly: plain data, copied into every grid item.
enum ExactTest {
    case circle(CircleShape)
    /// Where the polygon's bands are in the monitor's shared tables.
    case polygon(PlanarPolygon.Bands)
}

/// The exact tests behind the monitor: Swift first, GEOS when floating point
/// cannot decide.
extension RegionMonitor {
    /// Whether region `index` holds (x, y), boundary included.
    @inline(__always)
    func covers(_ index: Int, _ x: Double, _ y: Double) -> Bool {
        switch shapes[index] {
        case .circle(let circle): return covers(index, .circle(circle), x, y)
        case .polygon(let polygon): return covers(index, .polygon(polygonBands[polygon]), x, y)
        }
    }

    /// The same, given the region's exact test (carried by its grid items).
    @inline(__always)
    func covers(_ index: Int, _ test: ExactTest, _ x: Double, _ y: Double) -> Bool {
        switch test {
        case .circle(let circle):
            return circle.covers(x, y)
        case .polygon(let bands):
            counters.exactTests += 1
            let answer = sharedEdges.withUnsafeBufferPointer { edges in
                sharedStarts.withUnsafeBufferPointer { starts in
                    sharedRaster.withUnsafeBufferPointer { raster in
                        PlanarPolygon.covers(x, y, bands: bands, starts: starts, edges: edges, raster: raster)
                    }
                }
            }
            if let answer { return answer }
            return geosCovers(index, x, y)
        }
    }

    /// Whether a device inside region `index`, now at (x, y) and not covered, is
    /// farther than the hysteresis from it: the exit rule of `MonitorOptions.hysteresis`.
    func isBeyondHysteresis(_ index: Int, _ x: Double, _ y: Double) -> Bool {
        let margin = options.hysteresis
        if margin == 0 { return true }
        switch shapes[index] {
        case .circle(let circle):
            return circle.distanceFromCenter(x, y) > circle.radius + margin
        case .polygon(let polygon):
            return polygons[polygon].distanceToBoundary(x, y) > margin
        }
    }

    /// Whether the segment between two points outside region `index` passes through it.
    func segmentMeets(_ index: Int, _ px: Double, _ py: Double, _ qx: Double, _ qy: Double) -> Bool {
        switch shapes[index] {
        case .circle(let circle):
            return circle.segmentMeets(px, py, qx, qy)
        case .polygon(let polygon):
            if let answer = polygons[polygon].segmentMeetsBoundary(px, py, qx, qy) { return answer }
            return geosSegmentMeets(index, px, py, qx, qy)
        }
    }

    private func preparedGeometry(_ index: Int) throws(GEOSError) -> GEOSPreparedGeometry {
        if let geometry = preparedGeometries[index] { return geometry }
        let geometry = try GEOSPreparedGeometry(regions[index].region.geosGeometry(in: geosContext))
        preparedGeometries[index] = geometry
        return geometry
    }

    /// GEOS 3.11 has no `GEOSPreparedContainsXY`: build the point and ask
    /// `GEOSPreparedCovers_r`. Only reached within rounding of an edge.
    private func geosCovers(_ index: Int, _ x: Double, _ y: Double) -> Bool {
        counters.geosTests += 1
        do {
            return try preparedGeometry(index).covers(x, y)
        } catch {
            // The geometry was validated when the region was made; GEOS failing on a
            // point test would be a bug in GEOS or here, not bad input.
            preconditionFailure("GEOS failed on a validated region: \(error)")
        }
    }

    private func geosSegmentMeets(_ index: Int, _ px: Double, _ py: Double, _ qx: Double, _ qy: Double) -> Bool {
        counters.geosTests += 1
        do {
            let segment = try GEOSGeometry.lineString([XY(px, py), XY(qx, qy)], in: geosContext)
            return try preparedGeometry(index).intersects(segment)
        } catch {
            preconditionFailure("GEOS failed on a validated region: \(error)")
        }
    }
}
