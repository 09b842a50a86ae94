/// Building polygon regions: checking rings (RFC 7946 §3.1.6), validity through
/// GEOS with opt-in repair (`GEOSMakeValid_r`), and splitting at the antimeridian.
extension Region {
    /// A polygon region from raw rings, longitude first: `raw[polygon][ring][position]`,
    /// ring 0 of each polygon its shell.
    ///
    /// - Parameters:
    ///   - label: names the source in messages, for example `feature 'Bourse'`.
    ///   - repair: close unclosed rings and pass invalid polygons through GEOS's MakeValid.
    /// - Throws: `DataError` naming `label` and what is wrong.
    package static func polygons(_ raw: [[[XY]]], label: String, repair: Bool,
                                 in context: GEOSContext) throws(DataError) -> Region {
        guard !raw.isEmpty else { throw DataError("\(label): the polygon has no rings") }
        var checked: [[[XY]]] = []
        for (p, polygon) in raw.enumerated() {
            guard !polygon.isEmpty else { throw DataError("\(label): polygon \(p + 1) has no rings") }
            var rings: [[XY]] = []
            for (r, ring) in polygon.enumerated() {
                rings.append(try checkedRing(ring, name: "\(label): ring \(r + 1) of polygon \(p + 1)", repair: repair))
            }
            checked.append(rings)
        }
        // Valid and within −180…180 (the common case): proven without GEOS, linear
        // in practice where GEOS's isValid was far from it on long jagged rings.
        if isWithinWorld(checked) && PolygonValidity.isCertainlyValid(checked) {
            return Region(shape: .polygons(checked.map { Polygon(rings: $0) }))
        }
        do {
            var geometry = try geosGeometry(checked, in: context)
            if try !geometry.isValid() {
                let reason = try geometry.validityReason()
                guard repair else {
                    throw DataError("\(label): invalid polygon: \(reason); --repair makes it valid with GEOS MakeValid")
                }
                geometry = try geometry.madeValid()
            }
            var polygons = try polygonParts(of: geometry)
            guard !polygons.isEmpty else { throw DataError("\(label): the repaired polygon has no area") }
            let envelope = try geometry.envelope()
            if envelope.minX < -180 || envelope.maxX > 180 {
                polygons = try splitAtAntimeridian(polygons, in: context)
            }
            return Region(shape: .polygons(polygons))
        } catch let error as GEOSError {
            throw DataError("\(label): \(error.message)")
        } catch let error as DataError {
            throw error
        } catch {
            throw DataError("\(label): \(error)")
        }
    }

    private static func isWithinWorld(_ polygons: [[[XY]]]) -> Bool {
        polygons.allSatisfy { $0.allSatisfy { $0.allSatisfy { $0.x >= -180 && $0.x <= 180 } } }
    }

    private static func checkedRing(_ ring: [XY], name: String, repair: Bool) throws(DataError) -> [XY] {
        for point in ring {
            guard point.x.isFinite, point.y.isFinite, point.y >= -90, point.y <= 90, point.x >= -540, point.x <= 540 else {
                throw DataError("\(name): position [\(point.x), \(point.y)] is out of range (latitude −90…90)")
            }
        }
        var ring = ring
        if let first = ring.first, let last = ring.last, first != last {
            guard repair else {
                throw DataError("\(name) is not closed: its last position must repeat the first (RFC 7946 §3.1.6)")
            }
            ring.append(first)
        }
        guard ring.count >= 4 else {
            throw DataError("\(name) has \(ring.count) positions; a closed ring needs at least 4 (RFC 7946 §3.1.6)")
        }
        return ring
    }

    /// One GEOS Polygon or MultiPolygon for the rings.
    package static func geosGeometry(_ polygons: [[[XY]]], in context: GEOSContext) throws(GEOSError) -> GEOSGeometry {
        var parts: [GEOSGeometry] = []
        for rings in polygons {
            parts.append(try GEOSGeometry.polygon(shell: rings[0], holes: Array(rings.dropFirst()), in: context))
        }
        if parts.count == 1 { return parts[0] }
        return try GEOSGeometry.collection(.multiPolygon, of: parts, in: context)
    }

    /// The GEOS geometry of this region's polygons (empty for a circle).
    package func geosGeometry(in context: GEOSContext) throws(GEOSError) -> GEOSGeometry {
        guard case .polygons(let polygons) = shape else {
            return try GEOSGeometry.collection(.multiPolygon, of: [], in: context)
        }
        return try Region.geosGeometry(polygons.map(\.rings), in: context)
    }

    /// The polygons in a geometry, descending into collections; lines and points
    /// that MakeValid may leave behind carry no area and are dropped.
    package static func polygonParts(of geometry: GEOSGeometry) throws(GEOSError) -> [Polygon] {
        switch try geometry.kind() {
        case .polygon:
            if try geometry.isEmpty() { return [] }
            var rings = [try geometry.exteriorRing().coordinates()]
            for hole in try geometry.interiorRings() { rings.append(try hole.coordinates()) }
            return [Polygon(rings: rings)]
        case .multiPolygon, .geometryCollection:
            var parts: [Polygon] = []
            for index in 0..<(try geometry.partCount()) {
                parts += try polygonParts(of: try geometry.part(at: index))
            }
            return parts
        default:
            return []
        }
    }

    /// RFC 7946 §3.1.9: a geometry crossing the antimeridian is cut in two. Polygons
    /// given with longitudes beyond ±180 are shifted by ±360° and clipped to the
    /// world, so that every stored part lies within −180…180.
    private static func splitAtAntimeridian(_ polygons: [Polygon], in context: GEOSContext) throws(GEOSError) -> [Polygon] {
        let world = try GEOSGeometry.rectangle(Envelope(minX: -180, minY: -90, maxX: 180, maxY: 90), in: context)
        var parts: [Polygon] = []
        for shift in [-360.0, 0, 360] {
            let shifted = polygons.map { $0.rings.map { $0.map { XY($0.x + shift, $0.y) } } }
            let clipped = try geosGeometry(shifted, in: context).intersection(world)
            parts += try polygonParts(of: clipped)
        }
        return parts
    }
}
