internal import CGEOS

/// A prepared geometry (`GEOSPrepare_r`): GEOS's indexed form of a geometry,
/// for fast repeated predicates against many points.
///
/// It owns the prepared handle and keeps the base geometry alive, because GEOS's
/// prepared geometry refers to it without copying. GEOS builds its internal index
/// lazily, on the first predicate, so a prepared geometry must not be shared by two
/// threads; each worker prepares its own.
package final class GEOSPreparedGeometry {
    /// The geometry this one was prepared from.
    package let base: GEOSGeometry
    private let handle: OpaquePointer
    private var context: GEOSContext { base.context }

    /// Prepares `geometry`.
    package init(_ geometry: GEOSGeometry) throws(GEOSError) {
        base = geometry
        handle = try geometry.context.check(GEOSPrepare_r(geometry.context.handle, geometry.handle), "GEOSPrepare_r")
    }

    deinit {
        GEOSPreparedGeom_destroy_r(base.context.handle, handle)
    }

    /// Whether `other` lies in the geometry, boundary included
    /// (`GEOSPreparedCovers_r`: 1 true, 0 false, 2 on exception).
    package func covers(_ other: GEOSGeometry) throws(GEOSError) -> Bool {
        try context.checkPredicate(GEOSPreparedCovers_r(context.handle, handle, other.handle), "GEOSPreparedCovers_r")
    }

    /// Whether `other` lies in the interior, away from the boundary
    /// (`GEOSPreparedContainsProperly_r`: 2 on exception).
    package func containsProperly(_ other: GEOSGeometry) throws(GEOSError) -> Bool {
        try context.checkPredicate(GEOSPreparedContainsProperly_r(context.handle, handle, other.handle), "GEOSPreparedContainsProperly_r")
    }

    /// Whether the geometries share a point (`GEOSPreparedIntersects_r`: 2 on exception).
    package func intersects(_ other: GEOSGeometry) throws(GEOSError) -> Bool {
        try context.checkPredicate(GEOSPreparedIntersects_r(context.handle, handle, other.handle), "GEOSPreparedIntersects_r")
    }

    /// Whether the geometries share no point (`GEOSPreparedDisjoint_r`: 2 on exception).
    package func isDisjoint(from other: GEOSGeometry) throws(GEOSError) -> Bool {
        try context.checkPredicate(GEOSPreparedDisjoint_r(context.handle, handle, other.handle), "GEOSPreparedDisjoint_r")
    }

    /// Whether the point (x, y) lies in the geometry, boundary included.
    ///
    /// GEOS 3.11 has no `GEOSPreparedContainsXY`, so this builds a point, asks
    /// `GEOSPreparedCovers_r`, and frees the point: callers count these.
    package func covers(_ x: Double, _ y: Double) throws(GEOSError) -> Bool {
        try covers(GEOSGeometry.point(x, y, in: context))
    }
}
