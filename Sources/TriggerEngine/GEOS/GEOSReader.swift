internal import CGEOS

/// Reads geometries from text with GEOS's own readers. Each call creates and
/// destroys its reader; readers are cheap next to parsing.
@_spi(Internals) public enum GEOSReader {
    /// Parses WKT (`GEOSWKTReader_read_r`, NULL on a parse error with GEOS's
    /// message, for example "ParseException: Expected word but encountered end of stream").
    package static func geometry(wkt: String, in context: GEOSContext) throws(GEOSError) -> GEOSGeometry {
        let reader = try context.check(GEOSWKTReader_create_r(context.handle), "GEOSWKTReader_create_r")
        defer { GEOSWKTReader_destroy_r(context.handle, reader) }
        let geometry = try context.check(GEOSWKTReader_read_r(context.handle, reader, wkt), "GEOSWKTReader_read_r")
        return GEOSGeometry(taking: geometry, in: context)
    }

    /// Parses one GeoJSON geometry object, Feature or FeatureCollection
    /// (`GEOSGeoJSONReader_readGeometry_r`, NULL on error).
    @_spi(Internals) public static func geometry(geoJSON: String, in context: GEOSContext) throws(GEOSError) -> GEOSGeometry {
        let reader = try context.check(GEOSGeoJSONReader_create_r(context.handle), "GEOSGeoJSONReader_create_r")
        defer { GEOSGeoJSONReader_destroy_r(context.handle, reader) }
        let geometry = try context.check(GEOSGeoJSONReader_readGeometry_r(context.handle, reader, geoJSON),
                                         "GEOSGeoJSONReader_readGeometry_r")
        return GEOSGeometry(taking: geometry, in: context)
    }

    /// Parses WKB bytes (`GEOSWKBReader_read_r`, NULL on error). WKB is how a
    /// geometry moves between contexts (one per worker thread) without text.
    package static func geometry(wkb: [UInt8], in context: GEOSContext) throws(GEOSError) -> GEOSGeometry {
        let reader = try context.check(GEOSWKBReader_create_r(context.handle), "GEOSWKBReader_create_r")
        defer { GEOSWKBReader_destroy_r(context.handle, reader) }
        let geometry = wkb.withUnsafeBufferPointer { bytes in
            GEOSWKBReader_read_r(context.handle, reader, bytes.baseAddress, bytes.count)
        }
        return GEOSGeometry(taking: try context.check(geometry, "GEOSWKBReader_read_r"), in: context)
    }
}

extension GEOSGeometry {
    /// The geometry as WKB bytes (`GEOSWKBWriter_write_r`; the buffer is freed with `GEOSFree_r`).
    package func wkb() throws(GEOSError) -> [UInt8] {
        let writer = try context.check(GEOSWKBWriter_create_r(context.handle), "GEOSWKBWriter_create_r")
        defer { GEOSWKBWriter_destroy_r(context.handle, writer) }
        var size = 0
        let bytes = try context.check(GEOSWKBWriter_write_r(context.handle, writer, handle, &size), "GEOSWKBWriter_write_r")
        defer { GEOSFree_r(context.handle, bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: size))
    }
}
