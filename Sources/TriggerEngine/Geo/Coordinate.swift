/// A position on the WGS 84 ellipsoid in degrees, as `CLLocationCoordinate2D`
/// and RFC 7946 positions (which list longitude first; this type names both).
public struct Coordinate: Sendable, Hashable, Codable {
    /// Degrees north of the equator, −90…90.
    public var latitude: Double
    /// Degrees east of Greenwich, −180…180.
    public var longitude: Double

    /// Creates a coordinate; nothing is checked (see `isValid`).
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether both values are finite and in range (latitude −90…90, longitude −180…180).
    public var isValid: Bool {
        latitude >= -90 && latitude <= 90 && longitude >= -180 && longitude <= 180
    }
}
