#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Distances on the sphere and in a local plane: the metric side of the monitor.
///
/// Great-circle distance uses the mean Earth radius (IUGG R1, 6,371,008.8 m), as
/// `CLLocation.distance(from:)` does in spirit; the local plane is the
/// equirectangular projection centred on a reference point, used for hysteresis
/// distances to polygons and the closest point of a segment to a circle's centre.
package enum GeoMath {
    /// Mean Earth radius in metres.
    package static let earthRadius = 6_371_008.8
    package static let radiansPerDegree = Double.pi / 180

    /// Great-circle distance in metres between two positions in degrees (haversine).
    @inline(__always)
    package static func haversine(lat1: Double, lon1: Double, lat2: Double, lon2: Double) -> Double {
        let phi1 = lat1 * radiansPerDegree, phi2 = lat2 * radiansPerDegree
        let dPhi = phi2 - phi1
        let dLambda = (lon2 - lon1) * radiansPerDegree
        let s1 = sin(dPhi / 2), s2 = sin(dLambda / 2)
        let h = s1 * s1 + cos(phi1) * cos(phi2) * s2 * s2
        return 2 * earthRadius * asin(min(1, h.squareRoot()))
    }

    /// A longitude difference folded into −180…180 degrees, so that the local plane
    /// is continuous across the antimeridian.
    @inline(__always)
    package static func wrappedDelta(_ lon: Double, from origin: Double) -> Double {
        var delta = lon - origin
        if delta > 180 { delta -= 360 } else if delta < -180 { delta += 360 }
        return delta
    }

    /// Metres per degree of longitude and of latitude in the equirectangular plane
    /// centred at latitude `lat`.
    @inline(__always)
    package static func planeScale(atLatitude lat: Double) -> (x: Double, y: Double) {
        let y = earthRadius * radiansPerDegree
        return (y * cos(lat * radiansPerDegree), y)
    }

    /// The distance from (px, py) to the segment a–b in a plane, with GEOS's
    /// formula (`Distance::pointToSegment`) so that our answer and GEOS's agree
    /// to the last bit wherever they can.
    @inline(__always)
    package static func pointToSegment(_ px: Double, _ py: Double,
                                       _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
        if ax == bx && ay == by { return hypot(px - ax, py - ay) }
        let len2 = (bx - ax) * (bx - ax) + (by - ay) * (by - ay)
        let r = ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / len2
        if r <= 0 { return hypot(px - ax, py - ay) }
        if r >= 1 { return hypot(px - bx, py - by) }
        let s = ((ay - py) * (bx - ax) - (ax - px) * (by - ay)) / len2
        return abs(s) * len2.squareRoot()
    }

    /// The sign of the orientation of `q` relative to the line a→b (1 left,
    /// −1 right, 0 collinear), or `nil` when double precision cannot decide it.
    ///
    /// This is the floating-point filter of GEOS's `CGAlgorithmsDD::orientationIndex`
    /// (Shewchuk's error bound): whenever it answers, the answer is exact, so it
    /// agrees with GEOS; when it cannot, the caller asks GEOS itself.
    @inline(__always)
    package static func orientation(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
                                    _ qx: Double, _ qy: Double) -> Int? {
        let detLeft = (ax - qx) * (by - qy)
        let detRight = (ay - qy) * (bx - qx)
        let det = detLeft - detRight
        let detSum: Double
        if detLeft > 0 {
            if detRight <= 0 { return det > 0 ? 1 : (det < 0 ? -1 : 0) }
            detSum = detLeft + detRight
        } else if detLeft < 0 {
            if detRight >= 0 { return det > 0 ? 1 : (det < 0 ? -1 : 0) }
            detSum = -detLeft - detRight
        } else {
            return det > 0 ? 1 : (det < 0 ? -1 : 0)
        }
        let bound = 1e-15 * detSum
        if det >= bound || -det >= bound { return det > 0 ? 1 : (det < 0 ? -1 : 0) }
        return nil
    }
}

extension GeoMath {
    /// The pieces of the segment p→q that `cross` tests, in longitude/latitude.
    ///
    /// A segment is straight in longitude/latitude (RFC 7946 §3.1.1), the short way
    /// round: when the longitudes are more than 180° apart it crosses the
    /// antimeridian and is cut there into two pieces, the crossing latitude
    /// interpolated linearly.
    package static func segmentPieces(_ px: Double, _ py: Double, _ qx: Double, _ qy: Double)
        -> [(Double, Double, Double, Double)] {
        guard abs(qx - px) > 180 else { return [(px, py, qx, qy)] }
        let edge: Double = px > 0 ? 180 : -180
        let shiftedQx = qx + 2 * edge
        let t = (edge - px) / (shiftedQx - px)
        let crossingY = py + t * (qy - py)
        return [(px, py, edge, crossingY), (-edge, crossingY, qx, qy)]
    }
}
