/// A region a device can be inside: a circle (centre and radius in metres,
/// great-circle distance, as `CLCircularRegion`) or a set of polygons with holes
/// (RFC 7946 Polygon and MultiPolygon, the boundary counting as inside).
///
/// A region is a plain value: validated, repaired when asked, and with polygons
/// across the antimeridian split into parts within −180…180 (RFC 7946 §3.1.9).
/// It holds no GEOS handles; the monitor builds what it needs from it.
public struct Region: Sendable, Hashable {
    /// One polygon: `rings[0]` is the shell, the rest are holes; each ring is
    /// closed (first position repeated last), x = longitude, y = latitude.
    public struct Polygon: Sendable, Hashable {
        package var rings: [[XY]]
    }

    public enum Shape: Sendable, Hashable {
        case circle(center: Coordinate, radius: Double)
        case polygons([Polygon])
    }

    public let shape: Shape

    public init(shape: Shape) {
        self.shape = shape
    }

    /// A circular region: points within `radius` metres of `center` (great-circle
    /// distance) are inside.
    /// - Throws: `DataError` when the centre is out of range or the radius is not
    ///   a positive finite number.
    public static func circle(center: Coordinate, radius: Double) throws(DataError) -> Region {
        guard center.isValid else {
            throw DataError("circle centre \(center.latitude), \(center.longitude) is out of range (latitude −90…90, longitude −180…180)")
        }
        guard radius.isFinite, radius > 0 else {
            throw DataError("circle radius \(radius) must be a positive number of metres")
        }
        return Region(shape: .circle(center: center, radius: radius))
    }

    /// The centre and radius of a circular region, `nil` for polygons.
    public var circle: (center: Coordinate, radius: Double)? {
        if case .circle(let center, let radius) = shape { return (center, radius) }
        return nil
    }

    /// The number of polygons (after splitting at the antimeridian); 0 for a circle.
    public var polygonCount: Int {
        if case .polygons(let polygons) = shape { return polygons.count }
        return 0
    }

    /// Positions in all (1 for a circle): the work of indexing the region.
    public var vertexCount: Int {
        switch shape {
        case .circle: return 1
        case .polygons(let polygons): return polygons.reduce(0) { $0 + $1.rings.reduce(0) { $0 + $1.count } }
        }
    }
}
