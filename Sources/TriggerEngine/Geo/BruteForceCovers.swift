/// The baseline of `trigger-bench geofence`: a fix against every region with
/// no index and no shortcut — plain `GEOSCovers_r` on a freshly built point for
/// polygons, haversine for circles. What the monitor's grid and Swift tests save.
@_spi(Internals) public final class BruteForceCovers {
    private let context = GEOSContext()
    private let geometries: [GEOSGeometry?]
    private let circles: [CircleShape?]

    @_spi(Internals) public init(regions: [MonitoredRegion]) throws {
        var geometries: [GEOSGeometry?] = []
        var circles: [CircleShape?] = []
        for region in regions {
            if let circle = region.region.circle {
                geometries.append(nil)
                circles.append(CircleShape(latitude: circle.center.latitude, longitude: circle.center.longitude,
                                           radius: circle.radius))
            } else {
                geometries.append(try region.region.geosGeometry(in: context))
                circles.append(nil)
            }
        }
        self.geometries = geometries
        self.circles = circles
    }

    /// How many regions hold (x, y).
    /// - Complexity: O(regions × vertices).
    @_spi(Internals) public func coveringCount(_ x: Double, _ y: Double) throws -> Int {
        var count = 0
        for index in geometries.indices {
            if let geometry = geometries[index] {
                if try geometry.covers(GEOSGeometry.point(x, y, in: context)) { count += 1 }
            } else if let circle = circles[index], circle.covers(x, y) {
                count += 1
            }
        }
        return count
    }
}
