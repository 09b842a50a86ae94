/// Regions from Well-Known Text, read by GEOS.
extension Region {
    /// Parses a WKT `POLYGON` or `MULTIPOLYGON` (x = longitude, y = latitude).
    ///
    /// - Parameters:
    ///   - wkt: the Well-Known Text.
    ///   - repair: make an invalid polygon valid with GEOS's MakeValid.
    /// - Throws: `InputError.data` with GEOS's parse message or the reason the polygon is invalid.
    public init(wkt: String, repair: Bool = false) throws(InputError) {
        self = try InputError.reading { try Region(readingWKT: wkt, repair: repair) }
    }

    /// `init(wkt:repair:)` with the reader's own errors (`DataError`, `GEOSError`).
    package init(readingWKT wkt: String, repair: Bool) throws {
        let context = GEOSContext()
        let geometry: GEOSGeometry
        do {
            geometry = try GEOSReader.geometry(wkt: wkt, in: context)
        } catch {
            throw DataError("WKT: \(error.message)")
        }
        let kind = try geometry.kind()
        guard kind == .polygon || kind == .multiPolygon else {
            throw DataError("WKT: \(kind) is not a region; use POLYGON or MULTIPOLYGON")
        }
        let parts = try Region.polygonParts(of: geometry)
        self = try Region.polygons(parts.map(\.rings), label: "WKT", repair: repair, in: context)
    }
}
