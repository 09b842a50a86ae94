import Foundation
@_spi(Internals) @testable import TriggerEngine

/// The oracle for the monitor: every fix against every region with plain,
/// unprepared GEOS `covers` on a freshly built point (polygons) or the haversine
/// formula written out here (circles). No index, no envelopes, no Swift
/// point-in-polygon, no caching beyond the per-fix answers; the semantics of
/// `shared/spec/cli.md` written as directly as possible.
final class BruteForceMonitor {
    let regions: [MonitoredRegion]
    let options: MonitorOptions
    private let context = GEOSContext()
    private let geometries: [GEOSGeometry?]

    private struct Device {
        var hasFix = false
        var time = 0.0
        var lon = 0.0, lat = 0.0
        var inside: [Bool]
        var enteredAt: [Double?]
        var dwellPending: [Bool]
        var fired: [Bool]
    }
    private var devices: [String: Device] = [:]

    init(regions: [MonitoredRegion], options: MonitorOptions) throws {
        self.regions = regions
        self.options = options
        let context = self.context
        geometries = try regions.map { region throws -> GEOSGeometry? in
            guard case .polygons(let polygons) = region.region.shape else { return nil }
            return try Self.geometry(polygons.map(\.rings), in: context)
        }
    }

    static func geometry(_ polygons: [[[XY]]], in context: GEOSContext) throws -> GEOSGeometry {
        let parts = try polygons.map { try GEOSGeometry.polygon(shell: $0[0], holes: Array($0.dropFirst()), in: context) }
        return try GEOSGeometry.collection(.multiPolygon, of: parts, in: context)
    }

    static let radius = 6_371_008.8
    static let degree = Double.pi / 180

    static func haversine(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let a = pow(sin((lat2 - lat1) * degree / 2), 2)
            + cos(lat1 * degree) * cos(lat2 * degree) * pow(sin((lon2 - lon1) * degree / 2), 2)
        return 2 * radius * asin(min(1, sqrt(a)))
    }

    /// Plain covers: the region holds the point, boundary included.
    func covered(_ index: Int, lon: Double, lat: Double) throws -> Bool {
        if let geometry = geometries[index] {
            return try geometry.covers(GEOSGeometry.point(lon, lat, in: context))
        }
        let circle = regions[index].region.circle!
        return Self.haversine(circle.center.latitude, circle.center.longitude, lat, lon) <= circle.radius
    }

    /// The local equirectangular plane at (lon0, lat0), in metres.
    static func project(_ lon: Double, _ lat: Double, lon0: Double, lat0: Double) -> XY {
        var dLon = lon - lon0
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        let metresPerDegree = radius * degree
        return XY(dLon * (metresPerDegree * cos(lat0 * degree)), (lat - lat0) * metresPerDegree)
    }

    /// Exit rule: farther than the hysteresis. Polygons: GEOS distance from the
    /// fix to the region drawn in the plane centred on the fix.
    func beyondHysteresis(_ index: Int, lon: Double, lat: Double) throws -> Bool {
        let margin = options.hysteresis
        if margin == 0 { return true }
        guard case .polygons(let polygons) = regions[index].region.shape else {
            let circle = regions[index].region.circle!
            return Self.haversine(circle.center.latitude, circle.center.longitude, lat, lon) > circle.radius + margin
        }
        let projected = polygons.map { $0.rings.map { $0.map { Self.project($0.x, $0.y, lon0: lon, lat0: lat) } } }
        let geometry = try Self.geometry(projected, in: context)
        return try geometry.distance(to: GEOSGeometry.point(0, 0, in: context)) > margin
    }

    /// Cross rule: the straight segment meets the region (GEOS intersects for
    /// polygons; for circles its closest point to the centre in the centre's plane).
    func segmentMeets(_ index: Int, from: (Double, Double), to: (Double, Double)) throws -> Bool {
        // The short way round: a segment more than 180° wide is cut at the antimeridian.
        if abs(to.0 - from.0) > 180 {
            let edge: Double = from.0 > 0 ? 180 : -180
            let t = (edge - from.0) / (to.0 + 2 * edge - from.0)
            let crossingLat = from.1 + t * (to.1 - from.1)
            return try pieceMeets(index, from: from, to: (edge, crossingLat))
                || pieceMeets(index, from: (-edge, crossingLat), to: to)
        }
        return try pieceMeets(index, from: from, to: to)
    }

    private func pieceMeets(_ index: Int, from: (Double, Double), to: (Double, Double)) throws -> Bool {
        if let geometry = geometries[index] {
            let line = try GEOSGeometry.lineString([XY(from.0, from.1), XY(to.0, to.1)], in: context)
            return try geometry.intersects(line)
        }
        // Circles: the closest point of the piece to the centre, in a plane where
        // x = (λ − λc)·cos φc and y = φ − φc (metres), λc the copy of the centre's
        // longitude (±360°) nearest the piece.
        let circle = regions[index].region.circle!
        var cLon = circle.center.longitude
        let cLat = circle.center.latitude
        let middle = (from.0 + to.0) / 2
        if middle - cLon > 180 { cLon += 360 } else if cLon - middle > 180 { cLon -= 360 }
        let metresPerDegree = Self.radius * Self.degree
        let xScale = metresPerDegree * cos(cLat * Self.degree)
        let a = XY((from.0 - cLon) * xScale, (from.1 - cLat) * metresPerDegree)
        let b = XY((to.0 - cLon) * xScale, (to.1 - cLat) * metresPerDegree)
        let d = XY(b.x - a.x, b.y - a.y)
        let length2 = d.x * d.x + d.y * d.y
        let t = length2 > 0 ? min(1, max(0, -(a.x * d.x + a.y * d.y) / length2)) : 0
        let lon = cLon + (a.x + t * d.x) / xScale
        let lat = cLat + (a.y + t * d.y) / metresPerDegree
        return Self.haversine(cLat, circle.center.longitude, lat, lon) <= circle.radius
    }

    /// The events of one fix, given which regions cover it (from `covered`).
    func ingest(_ fix: LocationFix, covering: [Bool]) throws -> [RegionEvent] {
        let lon = fix.coordinate.longitude, lat = fix.coordinate.latitude
        let time = fix.time.timeIntervalSince1970
        if !(lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180) { return [] }
        if let accuracy = fix.accuracy {
            if !(accuracy >= 0) || !accuracy.isFinite { return [] }
            if let limit = options.maxAccuracy, accuracy > limit { return [] }
        }
        var device = devices[fix.device] ?? Device(
            inside: Array(repeating: false, count: regions.count),
            enteredAt: Array(repeating: nil, count: regions.count),
            dwellPending: Array(repeating: false, count: regions.count),
            fired: Array(repeating: false, count: regions.count))
        if device.hasFix && time <= device.time { return [] }
        var events: [RegionEvent] = []
        func fire(_ index: Int, _ kind: RegionEvent.Kind) {
            if !regions[index].repeats {
                if device.fired[index] { return }
                device.fired[index] = true
            }
            events.append(RegionEvent(device: fix.device, region: regions[index].identifier, kind: kind,
                                      time: fix.time, coordinate: fix.coordinate))
        }
        for index in regions.indices {
            let wasInside = device.inside[index]
            if !device.hasFix {
                device.inside[index] = covering[index]
                if covering[index] && options.initial == .enter {
                    device.enteredAt[index] = time
                    device.dwellPending[index] = options.dwell != nil
                    if regions[index].notifyOnEntry { fire(index, .enter) }
                }
                continue
            }
            if wasInside {
                if !covering[index], try beyondHysteresis(index, lon: lon, lat: lat) {
                    device.inside[index] = false
                    device.dwellPending[index] = false
                    if regions[index].notifyOnExit { fire(index, .exit) }
                } else if let dwell = options.dwell, device.dwellPending[index],
                          let entered = device.enteredAt[index], time - entered >= dwell {
                    device.dwellPending[index] = false
                    fire(index, .dwell)
                }
            } else if covering[index] {
                device.inside[index] = true
                device.enteredAt[index] = time
                device.dwellPending[index] = options.dwell != nil
                if regions[index].notifyOnEntry { fire(index, .enter) }
            }
            if options.cross && !wasInside && !covering[index]
                && (regions[index].notifyOnEntry || regions[index].notifyOnExit) {
                if try segmentMeets(index, from: (device.lon, device.lat), to: (lon, lat)) { fire(index, .cross) }
            }
        }
        device.hasFix = true
        device.time = time
        device.lon = lon
        device.lat = lat
        devices[fix.device] = device
        return events
    }
}
