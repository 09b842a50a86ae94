#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Web Mercator (EPSG:3857), the projection of web maps: longitude and latitude on
/// a sphere of the WGS 84 semi-major axis, projected conformally, so that a small
/// circle on the ground is a circle on the map and north is up everywhere.
///
/// The world is a square: latitudes beyond ±`maxLatitude` (85.0511…°, where the
/// square ends) are clamped to it, as web maps do, so a fix at a pole is drawn at
/// the top or bottom edge of the world instead of at infinity.
package enum WebMercator {
    /// The sphere's radius in metres (the WGS 84 semi-major axis, EPSG:3857).
    package static let radius = 6_378_137.0
    /// The latitude where the square world ends: atan(sinh π) ≈ 85.0511287798°.
    package static let maxLatitude = atan(sinh(Double.pi)) / GeoMath.radiansPerDegree

    /// Projected x in metres east of Greenwich. Longitudes beyond ±180 are
    /// projected as given (a map across the antimeridian needs them).
    @inline(__always)
    package static func x(longitude: Double) -> Double {
        radius * longitude * GeoMath.radiansPerDegree
    }

    /// Projected y in metres north of the equator, the latitude clamped to
    /// ±`maxLatitude`: R·atanh(sin φ), the form that stays accurate near the poles.
    @inline(__always)
    package static func y(latitude: Double) -> Double {
        let clamped = min(max(latitude, -maxLatitude), maxLatitude)
        return radius * atanh(sin(clamped * GeoMath.radiansPerDegree))
    }

    /// The longitude of a projected x.
    package static func longitude(x: Double) -> Double {
        x / radius / GeoMath.radiansPerDegree
    }

    /// The latitude of a projected y: atan(sinh(y / R)).
    package static func latitude(y: Double) -> Double {
        atan(sinh(y / radius)) / GeoMath.radiansPerDegree
    }

    /// Ground metres per projected metre at a latitude, on the sphere the monitor
    /// measures with (mean radius 6,371,008.8 m): cos φ · R_mean / R.
    ///
    /// Circles are drawn with the monitor's sphere, so a scale bar drawn with this
    /// factor measures a region's radius as the monitor does.
    package static func groundMetresPerProjectedMetre(atLatitude latitude: Double) -> Double {
        let clamped = min(max(latitude, -maxLatitude), maxLatitude)
        return cos(clamped * GeoMath.radiansPerDegree) * GeoMath.earthRadius / radius
    }
}
