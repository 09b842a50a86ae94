import ArgumentParser
import Foundation
import TriggerEngine

/// `trigger-eval bench geofence`: `trigger-eval geofence`'s batch path end to end
/// (CSV file in, NDJSON events out to a file) on generated walks, against a
/// brute-force GEOS loop on a subsample and shapely 2.x's vectorised STRtree
/// query, in one run on the same points and polygons.
struct BenchGeofence: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geofence",
        abstract: "Geofence fixes/s end to end against brute-force GEOS and shapely's STRtree (same data, one run)."
    )

    @Option(help: "Fixes to generate.")
    var fixes = 1_000_000

    @Option(help: "Devices the fixes come from.")
    var devices = 10_000

    @Option(help: "Generated polygon regions (8 to 200 vertices each).")
    var regions = 10_000

    @Option(help: "Timed runs of each contender; the median is reported.")
    var runs = 3

    @Option(help: "Fixes the brute-force loop is timed on (extrapolated per fix).")
    var bruteForceFixes = 100

    @Option(help: "Folder with paris.geojson, manhattan.geojson and san-francisco.geojson.")
    var data: String?

    @Option(help: "Seed of the generated data.")
    var seed: UInt64 = 42

    @Flag(help: "Skip the shapely peer.")
    var noPeer = false

    @Option(help: "Scenarios to run: generated, real, hard (comma-separated; default all).")
    var scenarios = "generated,real,hard"

    @Option(help: "Keep the generated regions and fixes in this folder (one subfolder per scenario) instead of deleting them.")
    var keep: String?

    func run() throws {
        let folder = keep.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("bench-geofence-\(getpid())")
        defer { if keep == nil { try? FileManager.default.removeItem(at: folder) } }
        var generator = BenchRandom(seed: seed)

        print("trigger-eval bench geofence: \(fixes) fixes from \(devices) devices, medians of \(runs) runs")
        print("ours = GeofenceRun end to end (CSV file in, monitor, NDJSON events out to a file), one thread and two;")
        print("brute = every fix × every region with plain GEOS covers, timed on \(bruteForceFixes) fixes and extrapolated;")
        print("shapely = STRtree.query(points, predicate=\"within\") incl. point creation, excl. CSV parsing")
        print("")

        let chosen = Set(scenarios.split(separator: ",").map(String.init))
        if chosen.contains("hard") {
            let box = BenchGeoData.hardBox
            var hardGenerator = BenchRandom(seed: seed &+ 1)
            let jagged = BenchGeoData.jaggedPolygons(count: regions, box: box, using: &hardGenerator)
            try scenario("(c) hard: \(regions) jagged polygons, walks with polygon-sized steps", regionsJSON: jagged,
                         boxes: [box], steps: BenchGeoData.hardSteps,
                         folder: folder.appendingPathComponent("hard"), using: &hardGenerator)
        }
        guard chosen.contains("generated") || chosen.contains("real") else { return }
        let synthetic = BenchGeoData.polygons(count: regions, box: (0, 40, 10, 50), using: &generator)
        if chosen.contains("generated") { try scenario("(a) \(regions) generated polygons", regionsJSON: synthetic,
                     boxes: [(0, 40, 10, 50)], folder: folder.appendingPathComponent("generated"), using: &generator) }
        guard chosen.contains("real") else { return }

        let dataFolder = data ?? ["Tests/TriggerEngineTests/Fixtures/geo", "../shared/data"].first {
            FileManager.default.fileExists(atPath: "\($0)/paris.geojson")
        }
        guard let dataFolder else {
            print("(b) real polygon sets: skipped (give --data FOLDER with paris/manhattan/san-francisco.geojson)")
            return
        }
        var features: [String] = []
        var boxes: [(Double, Double, Double, Double)] = []
        for name in ["paris", "manhattan", "san-francisco"] {
            let loaded = try MonitoredRegion.load(featureCollectionAt: "\(dataFolder)/\(name).geojson", repair: true)
            features += BenchGeoData.features(loaded, prefix: name)
            boxes.append(BenchGeoData.box(of: loaded))
        }
        let realJSON = #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",\n") + "]}"
        try scenario("(b) Paris + Manhattan + San Francisco (\(features.count) polygons)", regionsJSON: realJSON,
                     boxes: boxes, folder: folder.appendingPathComponent("real"), using: &generator)
    }

    private func scenario(_ title: String, regionsJSON: String, boxes: [(Double, Double, Double, Double)],
                          steps: ClosedRange<Double> = 0.00005...0.0008, folder: URL, using generator: inout BenchRandom) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let regionsPath = folder.appendingPathComponent("regions.geojson").path
        let fixesPath = folder.appendingPathComponent("fixes.csv").path
        let eventsPath = folder.appendingPathComponent("events.ndjson").path
        try regionsJSON.write(toFile: regionsPath, atomically: false, encoding: .utf8)
        let sample = try BenchGeoData.writeWalks(to: fixesPath, fixes: fixes, devices: devices, boxes: boxes,
                                                 steps: steps, sampleSize: bruteForceFixes, using: &generator)

        let loadStart = Date()
        let loaded = try MonitoredRegion.load(featureCollectionAt: regionsPath, repair: true)
        let loadSeconds = Date().timeIntervalSince(loadStart)

        var summary = GeofenceSummary()
        var indexSeconds = 0.0
        func timeOurs(pipelined: Bool) throws -> [Double] {
            var seconds: [Double] = []
            for _ in 0..<runs {
                let out = try OutputSink(path: eventsPath)
                let indexStart = Date()
                let run = try GeofenceRun(regions: loaded, options: MonitorOptions(),
                                          source: .init(path: fixesPath, format: .csv))
                indexSeconds = Date().timeIntervalSince(indexStart)
                run.pipelined = pipelined
                let start = Date()
                summary = try run.run(write: { bytes in try bytes.withUnsafeBufferPointer { try out.write($0) } })
                try out.commit()
                seconds.append(Date().timeIntervalSince(start))
            }
            return seconds
        }
        let ours = try timeOurs(pipelined: false)
        let oursRate = Double(fixes) / median(ours)
        let ours2 = try timeOurs(pipelined: true)
        let ours2Rate = Double(fixes) / median(ours2)

        let bruteSeconds = try BenchGeoData.bruteForceSeconds(regions: loaded, sample: sample)
        let bruteRate = Double(sample.count) / bruteSeconds

        print(title)
        print(String(format: "  regions: GeoJSON read and validated with GEOS in %.2f s, monitor index built in %.2f s (not in fixes/s)",
                     loadSeconds, indexSeconds))
        print(String(format: "  %d events, %d exact polygon tests in Swift, %d handed to GEOS",
                     summary.counters.events.values.reduce(0, +), summary.counters.exactTests, summary.counters.geosTests))
        print(String(format: "  ours      %10.0f fixes/s   (one thread; median %.3f s of %@)", oursRate, median(ours),
                     ours.map { String(format: "%.3f", $0) }.joined(separator: ", ")))
        print(String(format: "  ours ×2   %10.0f fixes/s   (reader thread + monitor thread; median %.3f s of %@)", ours2Rate,
                     median(ours2), ours2.map { String(format: "%.3f", $0) }.joined(separator: ", ")))
        print(String(format: "  brute     %10.0f fixes/s   (%d fixes × %d regions in %.3f s)   ours/brute %.0f×",
                     bruteRate, sample.count, loaded.count, bruteSeconds, oursRate / bruteRate))
        if noPeer {
            print("  shapely   skipped (--no-peer)")
        } else if let peer = try peerSeconds(regionsPath: regionsPath, fixesPath: fixesPath) {
            let peerRate = Double(fixes) / median(peer.seconds)
            print(String(format: "  shapely   %10.0f fixes/s   (median %.3f s, %d pairs, shapely %@)   ours/shapely %.1f× (×2: %.1f×)",
                         peerRate, median(peer.seconds), peer.pairs, peer.version, oursRate / peerRate, ours2Rate / peerRate))
        }
        print("")
    }

    private func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }

    /// Runs `scripts/bench-geofence-peer.py`; `nil` (with a message) when python3
    /// or shapely is missing.
    private func peerSeconds(regionsPath: String, fixesPath: String) throws -> (seconds: [Double], pairs: Int, version: String)? {
        guard let object = PythonPeer.run(script: "bench-geofence-peer.py", arguments: [regionsPath, fixesPath, String(runs)],
                                          label: "shapely", module: "shapely"),
              let seconds = object["seconds"] as? [Double] else { return nil }
        return (seconds, object["pairs"] as? Int ?? 0, object["shapely"] as? String ?? "?")
    }
}
