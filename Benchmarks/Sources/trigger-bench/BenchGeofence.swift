import ArgumentParser
import Foundation
@_spi(Internals) import TriggerEngine

/// `trigger-bench geofence`: `trigger-eval geofence`'s batch path end to end
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

    @Option(help: "Scenarios to run: big, hard, generated, real (comma-separated; default all).")
    var scenarios = "big,hard,generated,real"

    @Option(help: "Vertices of the one big polygon of scenario big.")
    var bigVertices = 1_000_000

    @Option(help: "Keep the generated regions and fixes in this folder (one subfolder per scenario) instead of deleting them.")
    var keep: String?

    func run() throws {
        let folder = keep.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("bench-geofence-\(getpid())")
        defer { if keep == nil { try? FileManager.default.removeItem(at: folder) } }
        var generator = BenchRandom(seed: seed)

        print("trigger-bench geofence: \(fixes) fixes from \(devices) devices, \(runs) runs of each phase")
        print("ours: load = MonitoredRegion.load (GeoJSON, validity); index = GeofenceRun's monitor; run = GeofenceRun")
        print("(CSV file in, NDJSON events out to a file): fixes = read, parse, coverage, state; output = encode, write;")
        print("cli = trigger-eval geofence run as a child process (-o file), wall time from start to exit;")
        print("brute = every fix × every region with plain GEOS covers, timed on \(bruteForceFixes) fixes and extrapolated;")
        print("shapely = STRtree.query(points, predicate=\"within\") incl. point creation, excl. CSV parsing and its own load")
        print(String(format: "load average at start: %@", BenchGeoData.loadAverage()))
        print("")

        let chosen = Set(scenarios.split(separator: ",").map(String.init))
        if chosen.contains("big") { try bigPolygon(folder: folder.appendingPathComponent("big")) }
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

        let dataFolder = data ?? Repository.path("Tests/TriggerEngineTests/Fixtures/geo")
        guard FileManager.default.fileExists(atPath: "\(dataFolder)/paris.geojson") else {
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
        let megabytes = Double(regionsJSON.utf8.count) / 1e6

        // Load: GeoJSON read, regions checked (validity: the sweep, GEOS only where it cannot prove).
        var load = Sample()
        var loaded: [MonitoredRegion] = []
        for _ in 0..<runs {
            let start = Date()
            loaded = try MonitoredRegion.load(featureCollectionAt: regionsPath, repair: true)
            load.add(Date().timeIntervalSince(start))
        }
        let vertices = loaded.reduce(0) { $0 + $1.region.rings.reduce(0) { $0 + $1.count } }

        // Index, then the log through GeofenceRun: fixes (read, parse, coverage, state)
        // and output (encode, write) timed apart on one thread; both threads end to end.
        var index = Sample(), fixesOne = Sample(), outputOne = Sample(), runOne = Sample(), runTwo = Sample()
        var perBatch = Sample()
        var summary = GeofenceSummary()
        for pipelined in [false, true] {
            for _ in 0..<runs {
                let out = try BenchFile(path: eventsPath)
                let indexStart = Date()
                let run = try GeofenceRun(regions: loaded, options: MonitorOptions(), source: .init(path: fixesPath, format: .csv))
                index.add(Date().timeIntervalSince(indexStart))
                run.pipelined = pipelined
                var last = (time: Date(), rows: 0)
                let start = Date()
                summary = try run.run(write: { bytes in try out.write(bytes) }, progress: { rows in
                    let now = Date()
                    if !pipelined && rows > last.rows { perBatch.add(now.timeIntervalSince(last.time) * 1e6 / Double(rows - last.rows)) }
                    last = (now, rows)
                })
                try out.close()
                let seconds = Date().timeIntervalSince(start)
                if pipelined {
                    runTwo.add(seconds)
                } else {
                    runOne.add(seconds)
                    outputOne.add(summary.outputSeconds)
                    fixesOne.add(seconds - summary.outputSeconds)
                }
            }
        }
        // The command a user runs, as a child process: start, load, index, run and exit, overlapping as they do.
        // With --repair, as loaded above: the generated polygons include self-intersecting ones.
        var cli = Sample(), cliCPU = Sample()
        for _ in 0..<runs {
            let time = try Repository.timeTriggerEval(["geofence", "--regions", regionsPath, "--fixes", fixesPath, "-o", eventsPath,
                                                       "--repair", "--quiet"])
            cli.add(time.wall)
            cliCPU.add(time.cpu)
        }
        let bruteSeconds = try BenchGeoData.bruteForceSeconds(regions: loaded, sample: sample)
        let bruteRate = Double(sample.count) / bruteSeconds
        let events = summary.counters.events.values.reduce(0, +)
        let endOne = load.median + index.median + runOne.median, endTwo = load.median + index.median + runTwo.median

        print("\(title) (load average \(BenchGeoData.loadAverage()))")
        print(String(format: "  load     %@   %.1f MB GeoJSON at %.0f MB/s; %d regions, %d vertices", load.line(), megabytes,
                     megabytes / load.median, loaded.count, vertices))
        print(String(format: "  index    %@   grid, bands and rasters", index.line()))
        print(String(format: "  fixes    %@   one thread: read, parse, coverage, state = %.2f M fixes/s; per batch p99 %.2f µs/fix",
                     fixesOne.line(), Double(fixes) / fixesOne.median / 1e6, perBatch.percentile(0.99)))
        print(String(format: "  output   %@   one thread: %d events encoded and written (%d exact polygon tests in Swift, %d by GEOS)",
                     outputOne.line(), events, summary.counters.exactTests, summary.counters.geosTests))
        print(String(format: "  run ×1   %@   fixes + output, one thread = %.2f M fixes/s", runOne.line(), Double(fixes) / runOne.median / 1e6))
        print(String(format: "  run ×2   %@   fixes + output, reader thread + monitor thread = %.2f M fixes/s", runTwo.line(),
                     Double(fixes) / runTwo.median / 1e6))
        print(String(format: "  end to end (load + index + run): %.3f s one thread, %.3f s two", endOne, endTwo))
        print(String(format: "  cli      %@   trigger-eval geofence as a child process, wall (CPU median %.3f s)", cli.line(),
                     cliCPU.median))
        print(String(format: "  brute    %10.0f fixes/s   (%d fixes × %d regions in %.3f s)   ours ×2/brute %.0f×",
                     bruteRate, sample.count, loaded.count, bruteSeconds, Double(fixes) / runTwo.median / bruteRate))
        if noPeer {
            print("  shapely  skipped (--no-peer)")
        } else if let peer = try peerSeconds(regionsPath: regionsPath, fixesPath: fixesPath) {
            let containment = peer.seconds.median
            print(String(format: "  shapely  %@   STRtree containment alone = %.2f M points/s (%d pairs, shapely %@; its own load %.2f s, tree %.2f s)",
                         peer.seconds.line(), Double(fixes) / containment / 1e6, peer.pairs, peer.version, peer.load, peer.tree))
            print(String(format: "  ours end to end vs shapely's containment alone: %.1f× one thread, %.1f× two, %.1f× the CLI",
                         containment / endOne, containment / endTwo, containment / cli.median))
        }
        print("")
    }

    /// One valid polygon of `bigVertices` jagged vertices (issue 14): loading and
    /// validating it, against GEOS's isValid on a smaller one.
    private func bigPolygon(folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var random = BenchRandom(seed: seed &+ 2)
        let path = folder.appendingPathComponent("big.geojson").path
        let json = BenchGeoData.jaggedPolygon(vertices: bigVertices, center: (2.35, 48.85), radius: 0.05, using: &random)
        try json.write(toFile: path, atomically: false, encoding: .utf8)
        var load = Sample()
        var region = [MonitoredRegion]()
        for _ in 0..<runs {
            let start = Date()
            region = try MonitoredRegion.load(featureCollectionAt: path)
            load.add(Date().timeIntervalSince(start))
        }
        let peak = BenchGeoData.peakMegabytes()
        let indexStart = Date()
        _ = try RegionMonitor(regions: region)
        let indexSeconds = Date().timeIntervalSince(indexStart)
        let smaller = BenchGeoData.jaggedPolygon(vertices: 50_000, center: (2.35, 48.85), radius: 0.05, using: &random)
        let geos = try BenchGeoData.geosValiditySeconds(geoJSON: smaller)
        print("(load average \(BenchGeoData.loadAverage()))")
        print("(d) one valid polygon of \(bigVertices) jagged vertices (\(String(format: "%.1f", Double(json.utf8.count) / 1e6)) MB GeoJSON)")
        print(String(format: "  load     %@   read and validated (PolygonValidity: one pass for a star, else the sweep), peak memory of the process %.0f MB", load.line(), peak))
        print(String(format: "  index    %.3f s   monitor bands and raster", indexSeconds))
        print(String(format: "  GEOS     %.3f s   GEOSisValid_r alone on a 50,000-vertex polygon of the same kind (verdict: %@)",
                     geos.seconds, geos.valid ? "valid" : "invalid"))
        print("")
    }

    /// Seconds of several runs, summarised.
    struct Sample {
        private(set) var values: [Double] = []

        mutating func add(_ value: Double) { values.append(value) }

        var median: Double {
            guard !values.isEmpty else { return 0 }
            let sorted = values.sorted()
            return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }

        var mean: Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }

        func percentile(_ p: Double) -> Double {
            guard !values.isEmpty else { return 0 }
            let sorted = values.sorted()
            return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        }

        /// "median 0.123 s mean 0.125 s" in a fixed width.
        func line() -> String { String(format: "median %7.3f s  mean %7.3f s", median, mean) }
    }

    /// Runs `Benchmarks/Peers/bench-geofence-peer.py`; `nil` (with a message) when python3
    /// or shapely is missing.
    private func peerSeconds(regionsPath: String, fixesPath: String)
        throws -> (seconds: Sample, pairs: Int, version: String, load: Double, tree: Double)? {
        guard let object = PythonPeer.run(script: "bench-geofence-peer.py", arguments: [regionsPath, fixesPath, String(runs)],
                                          label: "shapely", module: "shapely"),
              let seconds = object["seconds"] as? [Double] else { return nil }
        var sample = Sample()
        for value in seconds { sample.add(value) }
        return (sample, object["pairs"] as? Int ?? 0, object["shapely"] as? String ?? "?",
                object["load_seconds"] as? Double ?? 0, object["tree_seconds"] as? Double ?? 0)
    }
}
