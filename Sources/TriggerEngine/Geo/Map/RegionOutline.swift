#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The shapes a map draws for regions, in longitude/latitude: a circle's outline
/// and a point inside a polygon to put its label at.
enum RegionOutline {
    /// The outline of a circular region as it lies on the ground: the points at
    /// `radius` metres from the centre on the monitor's sphere, at `count` equal
    /// steps of bearing, from north clockwise. Longitudes run on from the centre's
    /// without wrapping, so an outline across the antimeridian stays in one piece.
    ///
    /// Projected, this is what the circle looks like in Web Mercator: round while
    /// small, and stretched north–south when it spans many degrees of latitude.
    /// A circle holding a pole has an outline that goes once round the world; the
    /// polygon returned then closes along the pole (clamped to the map's edge)
    /// and spans 360° of longitude. A circle holding both poles is drawn from the
    /// pole band alone (`coversBothPoles`).
    static func circle(center: Coordinate, radius: Double, count: Int)
        -> (ring: [XY], coversBothPoles: Bool) {
        let angle = radius / GeoMath.earthRadius
        let phi1 = center.latitude * GeoMath.radiansPerDegree
        let lambda1 = center.longitude * GeoMath.radiansPerDegree
        var ring: [XY] = []
        ring.reserveCapacity(count + 3)
        var previous = center.longitude
        for step in 0..<count {
            // The destination of a great circle from the centre at this bearing.
            let bearing = Double(step) / Double(count) * 2 * Double.pi
            let sinPhi2 = sin(phi1) * cos(angle) + cos(phi1) * sin(angle) * cos(bearing)
            let phi2 = asin(min(1, max(-1, sinPhi2)))
            let lambda2 = lambda1 + atan2(sin(bearing) * sin(angle) * cos(phi1), cos(angle) - sin(phi1) * sinPhi2)
            var longitude = lambda2 / GeoMath.radiansPerDegree
            if step > 0 { longitude = previous + GeoMath.wrappedDelta(longitude, from: previous) }
            previous = longitude
            ring.append(XY(longitude, phi2 / GeoMath.radiansPerDegree))
        }
        let northPole = GeoMath.haversine(lat1: center.latitude, lon1: center.longitude, lat2: 90, lon2: 0) <= radius
        let southPole = GeoMath.haversine(lat1: center.latitude, lon1: center.longitude, lat2: -90, lon2: 0) <= radius
        if northPole && southPole {
            return ([], true)
        }
        if northPole || southPole, let first = ring.first, let last = ring.last {
            // Round the world: close along the pole, one full turn of longitude.
            let end = first.x + (last.x > first.x ? 360 : -360)
            let pole = northPole ? 90.0 : -90.0
            ring.append(XY(end, first.y))
            ring.append(XY(end, pole))
            ring.append(XY(first.x, pole))
        }
        ring.append(ring[0])
        return (ring, false)
    }

    /// A point well inside a polygon (shell and holes, longitude/latitude) for
    /// its label, with the width of the inside there: the middle of the widest
    /// inside stretch along one of a few horizontal lines across the shell. The
    /// centroid is not used: it can fall outside a crescent or in a hole.
    static func labelPoint(of rings: [[XY]]) -> (point: XY, width: Double)? {
        guard let shell = rings.first, !shell.isEmpty else { return nil }
        let minY = shell.map(\.y).min()!, maxY = shell.map(\.y).max()!
        var best: (point: XY, width: Double)?
        for fraction in [0.5, 0.35, 0.65, 0.2, 0.8] {
            let y = minY + (maxY - minY) * fraction
            var crossings: [Double] = []
            for ring in rings {
                for (a, b) in zip(ring, ring.dropFirst()) where (a.y <= y) != (b.y <= y) {
                    crossings.append(a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x))
                }
            }
            crossings.sort()
            var index = 0
            while index + 1 < crossings.count {
                let width = crossings[index + 1] - crossings[index]
                if width > (best?.width ?? 0) {
                    best = (XY((crossings[index] + crossings[index + 1]) / 2, y), width)
                }
                index += 2
            }
        }
        return best
    }
}
