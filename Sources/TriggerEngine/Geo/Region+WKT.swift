/// Regions from Well-Known Text, read by GEOS.
extension Region {
    /// Parses a WKT `POLYGON` or `MULTIPOLYGON` (x = longitude, y = latitude).
    ///
    /// - Parameters:
    ///   - wkt: the Well-Known Text.
    ///   - repair: make an invalid polygon valid with GEOS's MakeValid.
    /// - Throws: `DataError` with GEOS's parse message or the reason the polygon is invalid.
    public init(wkt: String, repair: Bool = false) throws {
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
