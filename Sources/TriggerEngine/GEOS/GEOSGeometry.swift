internal import CGEOS

/// A planar coordinate as GEOS sees it: x is longitude and y latitude for the
/// regions of this library.
package struct XY: Sendable, Hashable {
    package var x: Double
    package var y: Double

    package init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }
}

/// An axis-aligned rectangle in GEOS coordinates.
package struct Envelope: Sendable, Hashable {
    package var minX: Double
    package var minY: Double
    package var maxX: Double
    package var maxY: Double

    package init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// Whether the closed rectangle holds the point.
    @inline(__always)
    package func contains(_ x: Double, _ y: Double) -> Bool {
        x >= minX && x <= maxX && y >= minY && y <= maxY
    }
}

/// The kinds of geometry GEOS reports through `GEOSGeomTypeId_r`.
package enum GEOSGeometryKind: Int32, Sendable {
    case point = 0, lineString, linearRing, polygon, multiPoint, multiLineString,
         multiPolygon, geometryCollection
}

/// One GEOS geometry with exactly one owner.
///
/// An owning geometry calls `GEOSGeom_destroy_r` when it goes away. A geometry
/// handed to a new C owner (a ring given to a polygon, a polygon given to a
/// collection) gives up ownership through `relinquish()`. A part read out of a
/// larger geometry (`geometry(at:)`, `exteriorRing`) is borrowed: it keeps its
/// parent alive and frees nothing.
@_spi(Internals) public final class GEOSGeometry {
    /// The context this geometry's calls run in.
    package let context: GEOSContext
    /// The C handle, valid while this object lives.
    package let handle: OpaquePointer
    private var ownsHandle: Bool
    /// For a borrowed part: the geometry that owns its memory.
    private let parent: GEOSGeometry?

    /// Takes ownership of `handle`, a geometry made in `context`.
    package init(taking handle: OpaquePointer, in context: GEOSContext) {
        self.context = context
        self.handle = handle
        self.ownsHandle = true
        self.parent = nil
    }

    /// Wraps a part of `parent` without owning it.
    private init(borrowing handle: OpaquePointer, of parent: GEOSGeometry) {
        self.context = parent.context
        self.handle = handle
        self.ownsHandle = false
        self.parent = parent
    }

    deinit {
        if ownsHandle { GEOSGeom_destroy_r(context.handle, handle) }
    }

    /// Hands the C handle to a new owner; this object will no longer free it.
    package func relinquish() -> OpaquePointer {
        precondition(ownsHandle, "relinquish() on a geometry that does not own its handle")
        ownsHandle = false
        return handle
    }
}

// MARK: - Construction

extension GEOSGeometry {
    /// A point (`GEOSGeom_createPointFromXY_r`).
    package static func point(_ x: Double, _ y: Double, in context: GEOSContext) throws(GEOSError) -> GEOSGeometry {
        let handle = try context.check(GEOSGeom_createPointFromXY_r(context.handle, x, y), "GEOSGeom_createPointFromXY_r")
        return GEOSGeometry(taking: handle, in: context)
    }

    /// A rectangle (`GEOSGeom_createRectangle_r`).
    package static func rectangle(_ envelope: Envelope, in context: GEOSContext) throws(GEOSError) -> GEOSGeometry {
        let handle = try context.check(
            GEOSGeom_createRectangle_r(context.handle, envelope.minX, envelope.minY, envelope.maxX, envelope.maxY),
            "GEOSGeom_createRectangle_r")
        return GEOSGeometry(taking: handle, in: context)
    }

    /// A linear ring from its coordinates (the first repeated at the end).
    /// `GEOSGeom_createLinearRing_r` takes the coordinate sequence whether or not
    /// it succeeds (it wraps it in a smart pointer first), and fails when the ring
    /// is not closed or has fewer than four points.
    package static func linearRing(_ points: [XY], in context: GEOSContext) throws(GEOSError) -> GEOSGeometry {
        let sequence = try coordinateSequence(points, in: context)
        let ring = try context.check(GEOSGeom_createLinearRing_r(context.handle, sequence), "GEOSGeom_createLinearRing_r")
        return GEOSGeometry(taking: ring, in: context)
    }

    /// A line string (`GEOSGeom_createLineString_r`, which, like the ring
    /// constructor, takes the sequence even when it fails).
    package static func lineString(_ points: [XY], in context: GEOSContext) throws(GEOSError) -> GEOSGeometry {
        let sequence = try coordinateSequence(points, in: context)
        let line = try context.check(GEOSGeom_createLineString_r(context.handle, sequence), "GEOSGeom_createLineString_r")
        return GEOSGeometry(taking: line, in: context)
    }

    /// A polygon from a shell ring and hole rings.
    ///
    /// `GEOSGeom_createPolygon_r` checks its arguments before it takes the rings,
    /// and once they are valid rings it cannot fail; so the rings are relinquished
    /// after a successful call and freed by their Swift owners otherwise.
    package static func polygon(shell: [XY], holes: [[XY]] = [], in context: GEOSContext) throws(GEOSError) -> GEOSGeometry {
        let shellRing = try linearRing(shell, in: context)
        var holeRings: [GEOSGeometry] = []
        holeRings.reserveCapacity(holes.count)
        for hole in holes { holeRings.append(try linearRing(hole, in: context)) }
        var holeHandles: [OpaquePointer?] = holeRings.map { $0.handle }
        let polygon = holeHandles.withUnsafeMutableBufferPointer { buffer in
            GEOSGeom_createPolygon_r(context.handle, shellRing.handle, buffer.baseAddress, UInt32(buffer.count))
        }
        guard let polygon else { throw context.error(in: "GEOSGeom_createPolygon_r") }
        _ = shellRing.relinquish()
        for ring in holeRings { _ = ring.relinquish() }
        return GEOSGeometry(taking: polygon, in: context)
    }

    /// A collection of the given kind that takes ownership of `parts`
    /// (`GEOSGeom_createCollection_r`, which owns its parts only on success).
    package static func collection(_ kind: GEOSGeometryKind, of parts: [GEOSGeometry], in context: GEOSContext) throws(GEOSError) -> GEOSGeometry {
        var handles: [OpaquePointer?] = parts.map { $0.handle }
        let collection = handles.withUnsafeMutableBufferPointer { buffer in
            GEOSGeom_createCollection_r(context.handle, Int32(kind.rawValue), buffer.baseAddress, UInt32(buffer.count))
        }
        guard let collection else { throw context.error(in: "GEOSGeom_createCollection_r") }
        for part in parts { _ = part.relinquish() }
        return GEOSGeometry(taking: collection, in: context)
    }

    /// A deep copy owned by the caller, possibly in another context
    /// (`GEOSGeom_clone_r`).
    package func clone(in target: GEOSContext? = nil) throws(GEOSError) -> GEOSGeometry {
        let context = target ?? self.context
        let copy = try context.check(GEOSGeom_clone_r(context.handle, handle), "GEOSGeom_clone_r")
        return GEOSGeometry(taking: copy, in: context)
    }

    private static func coordinateSequence(_ points: [XY], in context: GEOSContext) throws(GEOSError) -> OpaquePointer {
        // XY is two Doubles, laid out as the x,y,x,y… buffer GEOS expects.
        let sequence = points.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return GEOSCoordSeq_create_r(context.handle, 0, 2) }
            return GEOSCoordSeq_copyFromBuffer_r(context.handle, base.assumingMemoryBound(to: Double.self),
                                                 UInt32(points.count), 0, 0)
        }
        return try context.check(sequence, "GEOSCoordSeq_copyFromBuffer_r")
    }
}

// MARK: - Structure

extension GEOSGeometry {
    /// The geometry's kind (`GEOSGeomTypeId_r`, -1 on exception).
    package func kind() throws(GEOSError) -> GEOSGeometryKind {
        let id = GEOSGeomTypeId_r(context.handle, handle)
        guard let kind = GEOSGeometryKind(rawValue: id) else { throw context.error(in: "GEOSGeomTypeId_r") }
        return kind
    }

    /// The number of parts of a collection, 1 for a simple geometry
    /// (`GEOSGetNumGeometries_r`, -1 on exception).
    package func partCount() throws(GEOSError) -> Int {
        let count = GEOSGetNumGeometries_r(context.handle, handle)
        if count < 0 { throw context.error(in: "GEOSGetNumGeometries_r") }
        return Int(count)
    }

    /// Part `index` of a collection, borrowed from this geometry.
    package func part(at index: Int) throws(GEOSError) -> GEOSGeometry {
        let part = try context.check(GEOSGetGeometryN_r(context.handle, handle, Int32(index)), "GEOSGetGeometryN_r")
        return GEOSGeometry(borrowing: part, of: self)
    }

    /// The shell of a polygon, borrowed.
    package func exteriorRing() throws(GEOSError) -> GEOSGeometry {
        let ring = try context.check(GEOSGetExteriorRing_r(context.handle, handle), "GEOSGetExteriorRing_r")
        return GEOSGeometry(borrowing: ring, of: self)
    }

    /// The holes of a polygon, borrowed.
    package func interiorRings() throws(GEOSError) -> [GEOSGeometry] {
        let count = GEOSGetNumInteriorRings_r(context.handle, handle)
        if count < 0 { throw context.error(in: "GEOSGetNumInteriorRings_r") }
        var rings: [GEOSGeometry] = []
        for index in 0..<count {
            let ring = try context.check(GEOSGetInteriorRingN_r(context.handle, handle, index), "GEOSGetInteriorRingN_r")
            rings.append(GEOSGeometry(borrowing: ring, of: self))
        }
        return rings
    }

    /// The coordinates of a point, line string or ring.
    package func coordinates() throws(GEOSError) -> [XY] {
        let sequence = try context.check(GEOSGeom_getCoordSeq_r(context.handle, handle), "GEOSGeom_getCoordSeq_r")
        var size: UInt32 = 0
        try context.checkStatus(GEOSCoordSeq_getSize_r(context.handle, sequence, &size), "GEOSCoordSeq_getSize_r")
        if size == 0 { return [] }
        var points = [XY](repeating: XY(0, 0), count: Int(size))
        let status = points.withUnsafeMutableBytes { raw in
            GEOSCoordSeq_copyToBuffer_r(context.handle, sequence, raw.baseAddress!.assumingMemoryBound(to: Double.self), 0, 0)
        }
        try context.checkStatus(status, "GEOSCoordSeq_copyToBuffer_r")
        return points
    }

    /// The bounding rectangle (`GEOSGeom_getExtent_r`, 0 on exception or when empty).
    package func envelope() throws(GEOSError) -> Envelope {
        var envelope = Envelope(minX: 0, minY: 0, maxX: 0, maxY: 0)
        let status = GEOSGeom_getExtent_r(context.handle, handle, &envelope.minX, &envelope.minY, &envelope.maxX, &envelope.maxY)
        try context.checkStatus(status, "GEOSGeom_getExtent_r")
        return envelope
    }

    /// Whether the geometry is empty (`GEOSisEmpty_r`: 2 on exception).
    package func isEmpty() throws(GEOSError) -> Bool {
        try context.checkPredicate(GEOSisEmpty_r(context.handle, handle), "GEOSisEmpty_r")
    }

    /// The planar area in squared coordinate units (`GEOSArea_r`, 0 on exception).
    package func area() throws(GEOSError) -> Double {
        var area = 0.0
        try context.checkStatus(GEOSArea_r(context.handle, handle, &area), "GEOSArea_r")
        return area
    }

    /// The geometry as WKT (`GEOSWKTWriter_write_r`; the string is freed with `GEOSFree_r`).
    package func wkt() throws(GEOSError) -> String {
        let writer = try context.check(GEOSWKTWriter_create_r(context.handle), "GEOSWKTWriter_create_r")
        defer { GEOSWKTWriter_destroy_r(context.handle, writer) }
        GEOSWKTWriter_setTrim_r(context.handle, writer, 1)
        let text = try context.check(GEOSWKTWriter_write_r(context.handle, writer, handle), "GEOSWKTWriter_write_r")
        defer { GEOSFree_r(context.handle, text) }
        return String(cString: text)
    }
}

// MARK: - Validity

extension GEOSGeometry {
    /// Whether the geometry is valid OGC simple features (`GEOSisValid_r`: 2 on exception).
    @_spi(Internals) public func isValid() throws(GEOSError) -> Bool {
        try context.checkPredicate(GEOSisValid_r(context.handle, handle), "GEOSisValid_r")
    }

    /// GEOS's explanation of why the geometry is invalid, such as
    /// "Self-intersection[2.5 2.5]", or "Valid Geometry" (`GEOSisValidReason_r`).
    package func validityReason() throws(GEOSError) -> String {
        let reason = try context.check(GEOSisValidReason_r(context.handle, handle), "GEOSisValidReason_r")
        defer { GEOSFree_r(context.handle, reason) }
        return String(cString: reason)
    }

    /// A valid geometry covering the same points (`GEOSMakeValid_r`).
    package func madeValid() throws(GEOSError) -> GEOSGeometry {
        let valid = try context.check(GEOSMakeValid_r(context.handle, handle), "GEOSMakeValid_r")
        return GEOSGeometry(taking: valid, in: context)
    }
}

// MARK: - Predicates and measures

extension GEOSGeometry {
    /// Whether every point of `other` lies in this geometry, boundary included
    /// (`GEOSCovers_r`: 2 on exception). The unprepared reference predicate.
    package func covers(_ other: GEOSGeometry) throws(GEOSError) -> Bool {
        try context.checkPredicate(GEOSCovers_r(context.handle, handle, other.handle), "GEOSCovers_r")
    }

    /// Whether the geometries share a point (`GEOSIntersects_r`: 2 on exception).
    package func intersects(_ other: GEOSGeometry) throws(GEOSError) -> Bool {
        try context.checkPredicate(GEOSIntersects_r(context.handle, handle, other.handle), "GEOSIntersects_r")
    }

    /// The planar distance (`GEOSDistance_r`, 0 on exception).
    package func distance(to other: GEOSGeometry) throws(GEOSError) -> Double {
        var distance = 0.0
        try context.checkStatus(GEOSDistance_r(context.handle, handle, other.handle, &distance), "GEOSDistance_r")
        return distance
    }

    /// The geometry grown by `width` coordinate units (`GEOSBuffer_r`).
    package func buffered(by width: Double, quadrantSegments: Int32 = 8) throws(GEOSError) -> GEOSGeometry {
        let grown = try context.check(GEOSBuffer_r(context.handle, handle, width, quadrantSegments), "GEOSBuffer_r")
        return GEOSGeometry(taking: grown, in: context)
    }
}
