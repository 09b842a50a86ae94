import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

@Suite("Web Mercator: the projection, its clamp near the poles, and fitting a frame")
struct WebMercatorTests {
    @Test func projectionIsTheSphericalMercatorOfEPSG3857AtSeededPoints() {
        var random = SplitMix64(seed: 3857)
        for _ in 0..<2_000 {
            let latitude = random.nextDouble(in: -85...85), longitude = random.nextDouble(in: -180...180)
            // EPSG:3857 as defined: x = Rλ, y = R ln tan(π/4 + φ/2), R = 6,378,137 m.
            let phi = latitude * Double.pi / 180
            let y = 6_378_137 * log(tan(Double.pi / 4 + phi / 2))
            #expect(abs(WebMercator.y(latitude: latitude) - y) <= 1e-6 * max(1, abs(y)), "\(latitude)")
            #expect(abs(WebMercator.x(longitude: longitude) - 6_378_137 * longitude * Double.pi / 180) <= 1e-8)
            #expect(abs(WebMercator.latitude(y: WebMercator.y(latitude: latitude)) - latitude) < 1e-9)
        }
    }

    @Test func worldIsASquareAndLatitudesBeyondItAreClamped() {
        let half = 20_037_508.342789244  // π · 6,378,137: x of 180°, the web maps' world edge
        #expect(abs(WebMercator.x(longitude: 180) - half) < 1e-6)
        #expect(abs(WebMercator.y(latitude: WebMercator.maxLatitude) - half) < 1e-4)
        #expect(abs(WebMercator.maxLatitude - 85.0511287798066) < 1e-12)
        for latitude in [85.06, 89.9, 90] {
            #expect(WebMercator.y(latitude: latitude) == WebMercator.y(latitude: WebMercator.maxLatitude))
            #expect(WebMercator.y(latitude: -latitude) == -WebMercator.y(latitude: WebMercator.maxLatitude))
        }
    }

    @Test func groundScaleMeasuresWhatHaversineMeasures() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<500 {
            let latitude = random.nextDouble(in: -80...80), longitude = random.nextDouble(in: -179...179)
            let step = 0.001  // about 111 m north and, at this latitude, east
            let north = (WebMercator.y(latitude: latitude + step) - WebMercator.y(latitude: latitude))
                * WebMercator.groundMetresPerProjectedMetre(atLatitude: latitude + step / 2)
            let east = (WebMercator.x(longitude: longitude + step) - WebMercator.x(longitude: longitude))
                * WebMercator.groundMetresPerProjectedMetre(atLatitude: latitude)
            let haversineNorth = GeoMath.haversine(lat1: latitude, lon1: longitude, lat2: latitude + step, lon2: longitude)
            let haversineEast = GeoMath.haversine(lat1: latitude, lon1: longitude, lat2: latitude, lon2: longitude + step)
            #expect(abs(north / haversineNorth - 1) < 1e-6)
            #expect(abs(east / haversineEast - 1) < 1e-6)
        }
    }

    @Test func fittedFrameHoldsSeededBoxesTightlyWithinItsLimits() {
        var random = SplitMix64(seed: 11)
        for _ in 0..<300 {
            let south = random.nextDouble(in: -84...80), north = min(85, south + random.nextDouble(in: 0.001...40))
            let west = random.nextDouble(in: -180...179), east = west + random.nextDouble(in: 0.001...200)
            let frame = MapFrame.fitted(west: west, east: east, south: south, north: north, maxWidth: 1000, maxHeight: 800,
                                        minWidth: 480, minHeight: 360, margin: 36)
            #expect(frame.width <= 1000 && frame.height <= 800 && frame.width >= 480 && frame.height >= 360)
            let left = frame.pixelX(unwrappedLongitude: west), right = frame.pixelX(unwrappedLongitude: east)
            let top = frame.pixelY(latitude: north), bottom = frame.pixelY(latitude: south)
            #expect(left >= 36 - 1e-6 && right <= frame.width - 36 + 1e-6 && top >= 36 - 1e-6 && bottom <= frame.height - 36 + 1e-6,
                    "\(west) \(east) \(south) \(north): \(left) \(right) \(top) \(bottom) in \(frame.width)×\(frame.height)")
            // Tight: the data fills the width or the height, but for the 500 m minimum span.
            let fills = right - left >= 1000 - 72 - 1 || bottom - top >= 800 - 72 - 1
            let tiny = GeoMath.haversine(lat1: south, lon1: west, lat2: south, lon2: east) < 600
                || GeoMath.haversine(lat1: south, lon1: west, lat2: north, lon2: west) < 600
            #expect(fills || tiny)
        }
    }

    @Test func singleFixGetsAStreetLevelFrameNotAnInfiniteZoom() {
        let frame = MapFrame.fitted(west: 2.35, east: 2.35, south: 48.85, north: 48.85, maxWidth: 1000, maxHeight: 800,
                                    minWidth: 480, minHeight: 360, margin: 36)
        // 500 m over the 728 pixels of the shorter inner side.
        #expect(abs(frame.metresPerPixel(atLatitude: 48.85) - 500.0 / 728) < 1e-9)
        let (x, y) = frame.pixel(of: Coordinate(latitude: 48.85, longitude: 2.35))
        #expect(abs(x - frame.width / 2) < 1e-6 && abs(y - frame.height / 2) < 1e-6)
    }
}
