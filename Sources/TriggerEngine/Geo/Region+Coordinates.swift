/// Polygon regions built from coordinates, without GeoJSON or WKT text.
extension Region {
    /// A polygon region: an outer ring and any holes, each a closed or open
    /// list of coordinates (the first point is repeated at the end when it is not).
    ///
    /// The rules are the GeoJSON reader's: at least four positions per closed
    /// ring, valid by GEOS's rules (or made valid with `repair`), split at the
    /// antimeridian when it crosses it.
    /// - Parameters:
    ///   - exterior: the outer ring.
    ///   - holes: rings cut out of it.
    ///   - repair: pass an invalid polygon through GEOS's MakeValid instead of refusing it.
    /// - Throws: `DataError` saying which ring is wrong and why.
    public static func polygon(exterior: [Coordinate], holes: [[Coordinate]] = [],
                               repair: Bool = false) throws(DataError) -> Region {
        try polygons([(exterior: exterior, holes: holes)], repair: repair)
    }

    /// A region of several polygons (a MultiPolygon), each an outer ring and its holes.
    /// - Throws: `DataError` as `polygon(exterior:holes:repair:)`.
    public static func polygons(_ parts: [(exterior: [Coordinate], holes: [[Coordinate]])],
                                repair: Bool = false) throws(DataError) -> Region {
        let raw = parts.map { part in
            ([part.exterior] + part.holes).map { ring in
                closed(ring).map { XY($0.longitude, $0.latitude) }
            }
        }
        return try polygons(raw, label: "polygon", repair: repair, in: GEOSContext())
    }

    /// `ring` with its first point repeated at the end, unless it already is.
    private static func closed(_ ring: [Coordinate]) -> [Coordinate] {
        guard let first = ring.first, ring.last != first else { return ring }
        return ring + [first]
    }
}
