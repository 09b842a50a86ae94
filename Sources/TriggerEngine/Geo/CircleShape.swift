#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A circular region ready for tests: great-circle distance from the centre.
struct CircleShape: Sendable {
    let latitude: Double, longitude: Double, radius: Double

    /// Whether (lon x, lat y) is within the radius (the boundary counts).
    @inline(__always)
    func covers(_ x: Double, _ y: Double) -> Bool {
        GeoMath.haversine(lat1: latitude, lon1: longitude, lat2: y, lon2: x) <= radius
    }

    /// Great-circle metres from the centre.
    @inline(__always)
    func distanceFromCenter(_ x: Double, _ y: Double) -> Double {
        GeoMath.haversine(lat1: latitude, lon1: longitude, lat2: y, lon2: x)
    }

    /// Whether the segment p–q (a piece no wider than 180°, see
    /// `GeoMath.segmentPieces`) comes within the radius: its closest point to the
    /// centre in the equirectangular plane of the centre (a linear map of
    /// longitude/latitude, so the segment stays straight), measured back on the
    /// sphere. The centre is taken at whichever of λ, λ ± 360° is nearest the piece.
    func segmentMeets(_ px: Double, _ py: Double, _ qx: Double, _ qy: Double) -> Bool {
        let middle = (px + qx) / 2
        var centerX = longitude
        if middle - centerX > 180 { centerX += 360 } else if centerX - middle > 180 { centerX -= 360 }
        let scale = GeoMath.planeScale(atLatitude: latitude)
        let ax = (px - centerX) * scale.x, ay = (py - latitude) * scale.y
        let bx = (qx - centerX) * scale.x, by = (qy - latitude) * scale.y
        let dx = bx - ax, dy = by - ay
        let length2 = dx * dx + dy * dy
        let t = length2 > 0 ? min(1, max(0, -(ax * dx + ay * dy) / length2)) : 0
        let closestX = centerX + (ax + t * dx) / scale.x
        let closestY = latitude + (ay + t * dy) / scale.y
        return GeoMath.haversine(lat1: latitude, lon1: longitude, lat2: closestY, lon2: closestX) <= radius
    }

    /// Envelopes in degrees that hold the whole circle: one, or two when it crosses
    /// the antimeridian, or a full band of longitude when it reaches a pole. The
    /// half-width in longitude is that of a spherical cap, asin(sin r / cos φ),
    /// widened by a hair so that rounding never drops a point on the boundary.
    var envelopes: [Envelope] {
        let angle = radius / GeoMath.earthRadius
        let dLat = angle / GeoMath.radiansPerDegree * (1 + 1e-9) + 1e-9
        let south = latitude - dLat, north = latitude + dLat
        let phi = latitude * GeoMath.radiansPerDegree
        let ratio = sin(min(angle, .pi / 2)) / cos(phi)
        if south <= -90 || north >= 90 || angle >= .pi / 2 || !(ratio < 1) {
            return [Envelope(minX: -180, minY: max(-90, south), maxX: 180, maxY: min(90, north))]
        }
        let dLon = asin(ratio) / GeoMath.radiansPerDegree * (1 + 1e-9) + 1e-9
        let west = longitude - dLon, east = longitude + dLon
        if west < -180 {
            return [Envelope(minX: -180, minY: south, maxX: east, maxY: north),
                    Envelope(minX: west + 360, minY: south, maxX: 180, maxY: north)]
        }
        if east > 180 {
            return [Envelope(minX: west, minY: south, maxX: 180, maxY: north),
                    Envelope(minX: -180, minY: south, maxX: east - 360, maxY: north)]
        }
        return [Envelope(minX: west, minY: south, maxX: east, maxY: north)]
    }
}
