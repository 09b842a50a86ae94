import Foundation
@_spi(Internals) @testable import TriggerEngine

/// Regions (GeoJSON, WKT) and location logs (CSV, NDJSON, GPX) through the
/// monitor, as `trigger-eval geofence` reads them.
extension FuzzTargets {
    static let geoJSON = FuzzTarget(
        name: "geojson",
        summary: "GeoJSON FeatureCollections (typed and general paths agree, chunked reads as one thread) and geometries, repaired when refused; a monitor over them",
        format: "geojson"
    ) { bytes in
        FuzzOutcome.catching {
            let data = Data(bytes)
            let regions: [MonitoredRegion]
            if data.range(of: Data("FeatureCollection".utf8)) != nil {
                // Read in chunks by two threads (as large files are), the byte
                // reader must answer exactly as on one thread.
                let alone = GeoJSONFeatureCollection(parsing: data, splitAbove: .max)
                let chunked = GeoJSONFeatureCollection(parsing: data, splitAbove: 0, chunkSize: max(1, data.count / 16))
                guard String(describing: alone?.features) == String(describing: chunked?.features) else {
                    throw FuzzViolation("the chunked GeoJSON read differs from the one-thread read")
                }
                regions = try repairedWhenRefused { repair in
                    let regions = try MonitoredRegion.featureCollection(data, repair: repair)
                    // The typed decoding is a fast path: the general one must agree with it.
                    if GeoJSONFeatureCollection(parsing: data) != nil {
                        let general = try MonitoredRegion.generalFeatureCollection(data, repair: repair)
                        guard general == regions else {
                            throw FuzzViolation("the typed and general FeatureCollection readers disagree: \(regions.count) vs \(general.count) regions")
                        }
                    }
                    return regions
                }
            } else {
                let text = String(decoding: bytes, as: UTF8.self)
                let region = try repairedWhenRefused { repair in try Region(geoJSON: text, repair: repair) }
                regions = [MonitoredRegion(identifier: "geometry", region: region)]
            }
            return try monitorFindsEveryRegion(regions)
        }
    }

    static let wkt = FuzzTarget(
        name: "wkt", summary: "WKT POLYGON/MULTIPOLYGON through GEOS, repaired when refused; a monitor over it",
        format: "wkt"
    ) { bytes in
        FuzzOutcome.catching {
            let text = String(decoding: bytes, as: UTF8.self)
            let region = try repairedWhenRefused { repair in try Region(wkt: text, repair: repair) }
            return try monitorFindsEveryRegion([MonitoredRegion(identifier: "wkt", region: region)])
        }
    }

    static let fixesCSV = FuzzTarget(
        name: "fixes-csv", summary: "CSV location logs (header, quoting, times, numbers) through GeofenceRun, lenient then strict",
        format: "csv"
    ) { bytes in geofence(bytes, format: .csv) }

    static let fixesNDJSON = FuzzTarget(
        name: "fixes-ndjson", summary: "NDJSON location logs through GeofenceRun, lenient then strict",
        format: "ndjson"
    ) { bytes in geofence(bytes, format: .ndjson) }

    static let fixesGPX = FuzzTarget(
        name: "fixes-gpx", summary: "GPX 1.0/1.1 tracks (tags, attributes, entities, comments) through GeofenceRun, lenient then strict",
        format: "gpx"
    ) { bytes in geofence(bytes, format: .gpx) }

    /// Runs `read` as given, and once more with repair when it refuses the input:
    /// the MakeValid path gets the broken polygons.
    private static func repairedWhenRefused<T>(_ read: (Bool) throws -> T) throws -> T {
        do {
            return try read(false)
        } catch let error where FuzzOutcome.unwrapped(error) is DataError {
            do { return try read(true) } catch let again where FuzzOutcome.unwrapped(again) is DataError { throw error }
        }
    }

    /// Builds a monitor over `regions` and checks that each finds its own point:
    /// a first fix at a circle's centre, or on the first vertex of a polygon's
    /// shell (the boundary counts as inside), is an `enter` with `--initial enter`.
    private static func monitorFindsEveryRegion(_ regions: [MonitoredRegion]) throws -> FuzzOutcome {
        let watched = regions.enumerated().map { index, region in
            MonitoredRegion(identifier: "r\(index)", region: region.region)
        }
        let monitor = try RegionMonitor(regions: watched, options: MonitorOptions(initial: .enter))
        for (index, region) in watched.enumerated() {
            let point: Coordinate
            switch region.region.shape {
            case .circle(let center, _): point = center
            case .polygons(let polygons):
                guard let vertex = polygons.first?.rings.first?.first else { continue }
                point = Coordinate(latitude: vertex.y, longitude: vertex.x)
            }
            let events = monitor.ingest(LocationFix(device: "d\(index)", time: Date(timeIntervalSince1970: 1_767_225_600),
                                                    coordinate: point))
            guard events.contains(where: { $0.region == region.identifier && $0.kind == .enter }) else {
                return .violated("a first fix at \(point.latitude), \(point.longitude), on region \(index) itself, does not enter it")
            }
        }
        return .accepted(count: regions.count)
    }

    /// The regions every location log is run against: small ones where the
    /// seeds go (a Liverpool bus route, tracks in Slovenia and Istria), larger
    /// ones around them, and a circle and a square with a hole at (0, 0), where
    /// mutated numbers tend to land. Most are large on purpose: the monitor's
    /// grid sizes its cells by the median region, and tiny cells over a
    /// continent would make every input cost a million-cell grid.
    private static let logRegions: [MonitoredRegion] = {
        func circle(_ name: String, _ lat: Double, _ lon: Double, _ radius: Double) -> MonitoredRegion {
            MonitoredRegion(identifier: name, region: try! Region.circle(center: Coordinate(latitude: lat, longitude: lon), radius: radius))
        }
        let square = try! Region(wkt: "POLYGON((-1 -1, 1 -1, 1 1, -1 1, -1 -1), (-0.5 -0.5, -0.5 0.5, 0.5 0.5, 0.5 -0.5, -0.5 -0.5))")
        let liverpool = try! Region(wkt: "POLYGON((-3.0 53.38, -2.95 53.38, -2.95 53.42, -3.0 53.42, -3.0 53.38))")
        return [
            circle("liverpool-centre", 53.405, -2.98, 800), MonitoredRegion(identifier: "liverpool-box", region: liverpool),
            circle("merseyside", 53.4, -2.9, 40_000), circle("cerknica", 45.76, 14.37, 2_000), circle("slovenia", 46.0, 14.5, 80_000),
            circle("istria", 45.27, 13.72, 40_000), circle("origin", 0, 0, 50_000),
            MonitoredRegion(identifier: "origin-square", region: square),
        ]
    }()

    /// `trigger-eval geofence --initial enter --hysteresis 25 --dwell 120 --cross
    /// --max-accuracy 500` over `bytes`, lenient; then `--strict` when the lenient
    /// run skipped a row (otherwise both runs are the same run).
    /// Each output line must be JSON whose `time` is RFC 3339.
    private static func geofence(_ bytes: UnsafeRawBufferPointer, format: LocationLogFormat) -> FuzzOutcome {
        FuzzScratchFile.with(bytes, suffix: ".\(format.rawValue)") { path in
            FuzzOutcome.catching {
                let options = MonitorOptions(initial: .enter, hysteresis: 25, dwell: 120, cross: true, maxAccuracy: 500)
                let source = GeofenceRun.Source(path: path, format: format, zone: try ZoneRules.named("Europe/Berlin"))
                var events = 0
                for strict in [false, true] {
                    let run = try GeofenceRun(regions: logRegions, options: options, source: source, strict: strict)
                    run.pipelined = false
                    var output: [UInt8] = []
                    let summary = try run.run(write: { output += $0 })
                    if let problem = checkEventLines(output) { return .violated(problem) }
                    events = output.count
                    if !strict {
                        // The embedder's reader, from the same bytes in memory, sees every row the run read.
                        let read = try LocationLog.forEachFix(in: Data(bytes), format: format, name: path,
                                                              zone: source.zone) { _ in }
                        guard read.fixes + read.badRows == summary.rowsRead, read.badRows == summary.badRows else {
                            return .violated("LocationLog read \(read.fixes) fixes and \(read.badRows) bad rows, the run \(summary.rowsRead) rows with \(summary.badRows) bad")
                        }
                    }
                    if summary.badRows == 0 && summary.counters.skipped.values.reduce(0, +) == 0 { break }
                }
                return .accepted(count: events)
            }
        }
    }

    private static func checkEventLines(_ output: [UInt8]) -> String? {
        for line in output.split(separator: 0x0A) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
                return "an event line is not a JSON object: \(String(decoding: line, as: UTF8.self))"
            }
            guard let time = object["time"] as? String, RFC3339.date(from: time) != nil else {
                return "an event's time is not RFC 3339: \(String(decoding: line, as: UTF8.self))"
            }
        }
        return nil
    }
}

/// A property of an answer that does not hold, thrown from deep inside a check.
struct FuzzViolation: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
