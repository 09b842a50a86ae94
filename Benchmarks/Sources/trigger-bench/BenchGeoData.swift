import Foundation
@_spi(Internals) import TriggerEngine

/// A seeded generator for benchmark data (SplitMix64).
struct BenchRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + Double(next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
    }
}

/// The generated regions and walks of `bench geofence`.
enum BenchGeoData {
    /// `count` star-shaped (hence valid) polygons of 8 to 200 vertices in the box, as a FeatureCollection.
    static func polygons(count: Int, box: (Double, Double, Double, Double), using random: inout BenchRandom) -> String {
        var features: [String] = []
        features.reserveCapacity(count)
        for index in 0..<count {
            let cx = random.uniform(box.0...box.2), cy = random.uniform(box.1...box.3)
            let radius = random.uniform(0.002...0.03)
            let vertices = 8 + Int(random.next() % 193)
            var angles = (0..<vertices).map { _ in random.uniform(0...(2 * Double.pi)) }
            angles.sort()
            var ring: [String] = []
            for angle in angles {
                let r = radius * random.uniform(0.5...1.0)
                ring.append(String(format: "[%.6f,%.6f]", cx + r * cos(angle) / cos(cy * Double.pi / 180), cy + r * sin(angle)))
            }
            ring.append(ring[0])
            features.append(#"{"type":"Feature","id":"zone-\#(index)","properties":{},"geometry":{"type":"Polygon","coordinates":[["# + ring.joined(separator: ",") + "]]}}")
        }
        return #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",\n") + "]}"
    }

    /// The hard scenario's regions: `count` star-shaped polygons of 8 to 200
    /// vertices whose distance from the centre changes at every vertex (a quarter
    /// to all of a base radius of 150–700 m), coastline-like, in the box (degrees),
    /// coordinates written with full double precision as a GIS export would.
    static func jaggedPolygons(count: Int, box: (Double, Double, Double, Double), using random: inout BenchRandom) -> String {
        var out = #"{"type":"FeatureCollection","features":["#
        out.reserveCapacity(count * 4_500)
        for index in 0..<count {
            let cx = random.uniform(box.0...box.2), cy = random.uniform(box.1...box.3)
            let radius = random.uniform(150...700) / metresPerDegree
            let vertices = 8 + Int(random.next() % 193)
            if index > 0 { out += ",\n" }
            out += #"{"type":"Feature","id":"zone-\#(index)","properties":{},"geometry":{"type":"Polygon","coordinates":[["#
            appendJaggedRing(&out, vertices: vertices, center: (cx, cy), radius: radius, using: &random)
            out += "]]}}"
        }
        return out + "]}"
    }

    /// One jagged polygon of `vertices` vertices (radius in degrees of latitude) as a FeatureCollection.
    static func jaggedPolygon(vertices: Int, center: (Double, Double), radius: Double, using random: inout BenchRandom) -> String {
        var out = #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"big","properties":{},"geometry":{"type":"Polygon","coordinates":[["#
        appendJaggedRing(&out, vertices: vertices, center: center, radius: radius, using: &random)
        return out + "]]}}]}"
    }

    /// A closed star-shaped ring: one vertex in each of `vertices` equal sectors (no
    /// gap reaches half a turn, so the ring stays simple around its centre), at a
    /// quarter to all of `radius` from it, longitudes stretched by 1 / cos(latitude).
    private static func appendJaggedRing(_ out: inout String, vertices: Int, center: (Double, Double), radius: Double,
                                         using random: inout BenchRandom) {
        let stretch = 1 / cos(center.1 * Double.pi / 180)
        var first = ""
        for index in 0..<vertices {
            let angle = (Double(index) + random.uniform(0.05...0.95)) * 2 * Double.pi / Double(vertices)
            let r = radius * random.uniform(0.25...1.0)
            let position = "[\(center.0 + r * cos(angle) * stretch),\(center.1 + r * sin(angle))]"
            if first.isEmpty { first = position } else { out += "," }
            out += position
        }
        out += "," + first
    }

    /// The hard scenario's area: 55 × 45 km around Paris (longitude, latitude).
    static let hardBox = (2.0, 48.6, 2.0 + 55_000 / (metresPerDegree * cos(48.8 * Double.pi / 180)), 48.6 + 45_000 / metresPerDegree)

    /// The hard scenario's steps, in degrees: 50 to 200 m, a third to a tenth of a polygon's size.
    static let hardSteps = (50 / metresPerDegree)...(200 / metresPerDegree)

    /// Metres in a degree of latitude (mean Earth radius).
    static let metresPerDegree = 6_371_008.8 * Double.pi / 180

    /// Loaded regions written back as GeoJSON features (polygons only).
    static func features(_ regions: [MonitoredRegion], prefix: String) -> [String] {
        regions.compactMap { region in
            guard let json = region.region.geoJSONGeometry else { return nil }
            return #"{"type":"Feature","id":"\#(prefix)/\#(region.identifier.replacingOccurrences(of: "\"", with: ""))","properties":{},"geometry":\#(json)}"#
        }
    }

    static func box(of regions: [MonitoredRegion]) -> (Double, Double, Double, Double) {
        var box = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
        for region in regions {
            for ring in region.region.rings {
                for point in ring {
                    box = (min(box.0, point.longitude), min(box.1, point.latitude),
                           max(box.2, point.longitude), max(box.3, point.latitude))
                }
            }
        }
        return box
    }

    /// Writes a CSV log of random walks (device, RFC 3339 time, lat, lon), devices
    /// spread over the boxes, all devices reporting once per round; returns the
    /// first `sampleSize` fixes as (lon, lat). Steps are in degrees.
    static func writeWalks(to path: String, fixes: Int, devices: Int, boxes: [(Double, Double, Double, Double)],
                           steps: ClosedRange<Double> = 0.00005...0.0008,
                           sampleSize: Int, using random: inout BenchRandom) throws -> [(Double, Double)] {
        var lon = [Double](), lat = [Double]()
        for device in 0..<devices {
            let box = boxes[device % boxes.count]
            lon.append(random.uniform(box.0...box.2))
            lat.append(random.uniform(box.1...box.3))
        }
        guard let file = FileHandle(forWritingAtPath: path) ?? {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            return FileHandle(forWritingAtPath: path)
        }() else { throw InputFileError(path: path, reason: "cannot create") }
        defer { try? file.close() }
        var out: [UInt8] = Array("device,time,lat,lon\n".utf8)
        var sample: [(Double, Double)] = []
        var written = 0
        var round = 0
        while written < fixes {
            let stamp = Array(RFC3339.string(epochSeconds: 1_795_000_000 + round * 30).utf8)
            for device in 0..<devices where written < fixes {
                let step = random.uniform(steps)
                let angle = random.uniform(0...(2 * Double.pi))
                let box = boxes[device % boxes.count]
                lon[device] = min(max(lon[device] + step * cos(angle), box.0), box.2)
                lat[device] = min(max(lat[device] + step * sin(angle), box.1), box.3)
                out += "d\(device),".utf8
                out += stamp
                out.append(0x2C)
                appendFixed(&out, lat[device])
                out.append(0x2C)
                appendFixed(&out, lon[device])
                out.append(0x0A)
                if sample.count < sampleSize { sample.append((lon[device], lat[device])) }
                written += 1
            }
            round += 1
            if out.count > 1 << 20 {
                file.write(Data(out))
                out.removeAll(keepingCapacity: true)
            }
        }
        file.write(Data(out))
        return sample
    }

    /// A number with six decimals, without `String(format:)`.
    private static func appendFixed(_ out: inout [UInt8], _ value: Double) {
        var micro = Int((value * 1_000_000).rounded())
        if micro < 0 { out.append(UInt8(ascii: "-")); micro = -micro }
        out += String(micro / 1_000_000).utf8
        out.append(UInt8(ascii: "."))
        let fraction = String(micro % 1_000_000)
        out += repeatElement(UInt8(ascii: "0"), count: 6 - fraction.utf8.count)
        out += fraction.utf8
    }

    /// Seconds for the brute-force loop over the sample: every region, plain
    /// GEOS covers on a fresh point (`BruteForceCovers`).
    static func bruteForceSeconds(regions: [MonitoredRegion], sample: [(Double, Double)]) throws -> Double {
        let brute = try BruteForceCovers(regions: regions)
        let start = Date()
        var hits = 0
        for (x, y) in sample { hits += try brute.coveringCount(x, y) }
        let seconds = Date().timeIntervalSince(start)
        if hits < 0 { print(hits) }  // keep the loop's result alive
        return seconds
    }

    /// The process's peak resident memory so far, in MB (`getrusage`).
    static func peakMegabytes() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_maxrss) / 1024
    }

    /// The 1, 5 and 15 minute load averages, as `/proc/loadavg` gives them.
    static func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?"
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    /// Seconds for GEOS's own validity check (`GEOSisValid_r`) of the polygon of
    /// a FeatureCollection, read with GEOS's GeoJSON reader.
    static func geosValiditySeconds(geoJSON: String) throws -> (seconds: Double, valid: Bool) {
        let context = GEOSContext()
        let geometry = try GEOSReader.geometry(geoJSON: geoJSON, in: context)
        let start = Date()
        let valid = try geometry.isValid()
        return (Date().timeIntervalSince(start), valid)
    }
}
