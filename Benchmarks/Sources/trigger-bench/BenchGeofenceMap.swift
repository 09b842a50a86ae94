import ArgumentParser
import Foundation
@_spi(Internals) import TriggerEngine

/// `trigger-bench geofence-map`: what drawing a map costs a geofence run.
/// The same run (CSV file in, NDJSON events out to a file) without a map, with an
/// SVG map and with an HTML map, interleaved run by run, on generated walks over
/// the real city polygons; the peer is the run without a map.
struct BenchGeofenceMap: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geofence-map",
        abstract: "Geofence runs with and without --map (svg, html): seconds, fixes/s and the map's cost, one run."
    )

    @Option(help: "Fixes to generate.")
    var fixes = 1_000_000

    @Option(help: "Devices the fixes come from.")
    var devices = 10_000

    @Option(help: "Timed runs of each contender (interleaved); median, mean and p99 are reported.")
    var runs = 5

    @Option(help: "Folder with paris.geojson, manhattan.geojson and san-francisco.geojson.")
    var data = Repository.path("Tests/TriggerEngineTests/Fixtures/geo")

    @Option(help: "Seed of the generated walks.")
    var seed: UInt64 = 42

    @Option(help: "Keep the generated log, events and maps in this folder instead of deleting them.")
    var keep: String?

    func run() throws {
        let folder = keep.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("bench-geofence-map-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { if keep == nil { try? FileManager.default.removeItem(at: folder) } }
        var generator = BenchRandom(seed: seed)
        var regions: [MonitoredRegion] = []
        var boxes: [(Double, Double, Double, Double)] = []
        for name in ["paris", "manhattan", "san-francisco"] {
            let loaded = try MonitoredRegion.load(featureCollectionAt: "\(data)/\(name).geojson", repair: true)
            regions += loaded.map { MonitoredRegion(identifier: "\(name)/\($0.identifier)", trigger: $0.trigger) }
            boxes.append(BenchGeoData.box(of: loaded))
        }
        let fixesPath = folder.appendingPathComponent("fixes.csv").path
        _ = try BenchGeoData.writeWalks(to: fixesPath, fixes: fixes, devices: devices, boxes: boxes, sampleSize: 0,
                                        using: &generator)

        print("trigger-bench geofence-map: \(fixes) fixes from \(devices) devices over \(regions.count) city polygons, \(runs) runs each")
        print("each = GeofenceRun end to end (CSV file in, NDJSON events out to a file, both threads),")
        print("plus, for the maps, GeofenceMap observing the run and writing its file; load average at start: \(Self.loadAverage())")
        print("")
        let contenders: [(name: String, format: MapFormat?)] = [("no map", nil), ("map svg", .svg), ("map html", .html)]
        var seconds = [[Double]](repeating: [], count: contenders.count)
        var sizes = [Int](repeating: 0, count: contenders.count)
        var report: MapReport?
        for _ in 0..<runs {
            for (index, contender) in contenders.enumerated() {
                let start = DispatchTime.now()
                let run = try GeofenceRun(regions: regions, options: MonitorOptions(),
                                          source: .init(path: fixesPath, format: .csv))
                let events = try BenchFile(path: folder.appendingPathComponent("events.ndjson").path)
                let map = try contender.format.map { _ in try GeofenceMap(regions: regions) }
                run.map = map
                _ = try run.run(write: { bytes in try events.write(bytes) })
                try events.close()
                if let map, let format = contender.format {
                    let path = folder.appendingPathComponent("map.\(format.rawValue)").path
                    let sink = try BenchFile(path: path)
                    report = try map.write(format) { bytes in try sink.write(bytes) }
                    try sink.close()
                    sizes[index] = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
                }
                seconds[index].append(Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
            }
        }
        let base = Self.median(seconds[0])
        for (index, contender) in contenders.enumerated() {
            let values = seconds[index]
            let median = Self.median(values), mean = values.reduce(0, +) / Double(values.count)
            let p99 = values.sorted()[min(values.count - 1, Int((Double(values.count) * 0.99).rounded(.up)) - 1)]
            var line = String(format: "  %-9@ %9.0f fixes/s   median %.3f s, mean %.3f s, p99 %.3f s   ×%.2f of no map",
                              contender.name, Double(fixes) / median, median, mean, p99, median / base)
            if sizes[index] > 0 { line += String(format: "   file %.1f MB", Double(sizes[index]) / 1e6) }
            print(line)
        }
        if let report {
            print("")
            print("  drawn: \(report.trackDevices) of \(report.devices) devices' tracks, \(report.trackFixes) fixes (every \(report.fixStride)), \(report.eventMarkers) of \(report.events) events")
        }
        print("  load average at end: \(Self.loadAverage())")
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }

    static func loadAverage() -> String {
        var loads = [Double](repeating: 0, count: 3)
        guard getloadavg(&loads, 3) == 3 else { return "?" }
        return loads.map { String(format: "%.2f", $0) }.joined(separator: " ")
    }
}
