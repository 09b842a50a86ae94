internal import CGEOS

extension GEOSGeometry {
    /// The points both geometries share, as a new geometry (`GEOSIntersection_r`,
    /// NULL on exception). Used to cut polygons at the antimeridian.
    package func intersection(_ other: GEOSGeometry) throws(GEOSError) -> GEOSGeometry {
        let shared = try context.check(GEOSIntersection_r(context.handle, handle, other.handle), "GEOSIntersection_r")
        return GEOSGeometry(taking: shared, in: context)
    }
}
