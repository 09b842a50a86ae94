import TestSupport
import Foundation
@_spi(Internals) @testable import TriggerEngine

/// Seeded random walks of devices with GPS noise, sparse jumps, and the faults a
/// real log has (fixes out of order, repeated instants, values out of range, poor
/// accuracy), interleaved into one log in file order.
struct RandomWalks {
    var devices = 10
    var fixesPerDevice = 200
    /// Where walks start: a box in degrees.
    var box: Envelope
    /// Typical step in metres.
    var step: ClosedRange<Double> = 20...250
    /// GPS noise in metres (each axis).
    var noise = 12.0
    /// Chance of a sparse jump of 10–40 steps.
    var jumpChance = 0.05

    func log(seed: UInt64) -> [LocationFix] {
        var random = SplitMix64(seed: seed)
        var perDevice: [[LocationFix]] = []
        let metresPerDegree = 6_371_008.8 * Double.pi / 180
        for device in 0..<devices {
            var lat = random.nextDouble(in: box.minY...box.maxY)
            var lon = random.nextDouble(in: box.minX...box.maxX)
            var heading = random.nextDouble(in: 0...(2 * Double.pi))
            var time = 1_790_000_000.0 + random.nextDouble(in: 0...600)
            var fixes: [LocationFix] = []
            for _ in 0..<fixesPerDevice {
                heading += random.nextDouble(in: -0.6...0.6)
                var length = random.nextDouble(in: step)
                if random.nextDouble(in: 0...1) < jumpChance { length *= random.nextDouble(in: 10...40) }
                let cosLat = max(cos(lat * Double.pi / 180), 0.01)
                lat += length * cos(heading) / metresPerDegree
                lon += length * sin(heading) / (metresPerDegree * cosLat)
                // Stay near the box: turn back when outside it.
                if lat < box.minY || lat > box.maxY || lon < box.minX || lon > box.maxX { heading += Double.pi }
                lat = min(max(lat, -89.999), 89.999)
                if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
                time += random.nextDouble(in: 5...120).rounded()
                var fixTime = time
                var fixLat = lat + random.nextDouble(in: -noise...noise) / metresPerDegree
                var fixLon = lon + random.nextDouble(in: -noise...noise) / (metresPerDegree * cosLat)
                if fixLon > 180 { fixLon -= 360 } else if fixLon < -180 { fixLon += 360 }
                fixLat = min(max(fixLat, -90), 90)
                let fault = random.nextDouble(in: 0...1)
                if fault < 0.02 { fixTime -= random.nextDouble(in: 1...300).rounded() }  // out of order
                else if fault < 0.03, let last = fixes.last { fixTime = last.time.timeIntervalSince1970 }  // repeated
                else if fault < 0.035 { fixLat = 91 + random.nextDouble(in: 0...5) }  // out of range
                let accuracy: Double? = random.nextDouble(in: 0...1) < 0.2 ? nil : random.nextDouble(in: 3...90)
                fixes.append(LocationFix(device: "device-\(device)", time: Date(timeIntervalSince1970: fixTime),
                                         coordinate: Coordinate(latitude: fixLat, longitude: fixLon), accuracy: accuracy))
            }
            perDevice.append(fixes)
        }
        // Interleave, keeping each device's own order.
        var log: [LocationFix] = []
        var next = Array(repeating: 0, count: devices)
        var remaining = Array(0..<devices)
        while !remaining.isEmpty {
            let pick = Int(random.next() % UInt64(remaining.count))
            let device = remaining[pick]
            log.append(perDevice[device][next[device]])
            next[device] += 1
            if next[device] == perDevice[device].count { remaining.remove(at: pick) }
        }
        return log
    }
}

/// The option sets every differential test runs.
enum OptionMatrix {
    static let all: [MonitorOptions] = [
        MonitorOptions(),
        MonitorOptions(initial: .enter),
        MonitorOptions(hysteresis: 25),
        MonitorOptions(initial: .enter, dwell: 600),
        MonitorOptions(cross: true),
        MonitorOptions(initial: .enter, hysteresis: 40, dwell: 300, cross: true, maxAccuracy: 50),
    ]
}

extension Envelope {
    /// The box around every position of the regions' polygons and circle centres.
    static func around(_ regions: [MonitoredRegion]) -> Envelope {
        var box = Envelope(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
        for region in regions {
            switch region.region.shape {
            case .circle(let center, _):
                box.minX = min(box.minX, center.longitude); box.maxX = max(box.maxX, center.longitude)
                box.minY = min(box.minY, center.latitude); box.maxY = max(box.maxY, center.latitude)
            case .polygons(let polygons):
                for point in polygons.flatMap({ $0.rings.flatMap { $0 } }) {
                    box.minX = min(box.minX, point.x); box.maxX = max(box.maxX, point.x)
                    box.minY = min(box.minY, point.y); box.maxY = max(box.maxY, point.y)
                }
            }
        }
        return box
    }
}
