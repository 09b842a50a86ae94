import Foundation
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// A geofence run with a map attached, as `trigger-eval geofence --map` makes
/// it: `GeofenceRun` over a log file, events as NDJSON, the map as SVG or HTML.
struct MapRun {
    struct Event: Equatable {
        var device: String, region: String, kind: String, time: String
        var latitude: Double, longitude: Double
    }

    var ndjson: [UInt8] = []
    var map: [UInt8] = []
    var report: MapReport
    var folder: URL
    /// The log, when the tests wrote it (`csv`).
    var log: String?

    var events: [Event] {
        String(decoding: ndjson, as: UTF8.self).split(separator: "\n").map { line in
            let object = try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            return Event(device: object["device"] as! String, region: object["region"] as! String,
                         kind: object["event"] as! String, time: object["time"] as! String,
                         latitude: (object["lat"] as! NSNumber).doubleValue, longitude: (object["lon"] as! NSNumber).doubleValue)
        }
    }

    func picture() throws -> MapPicture { try MapPicture(Data(map)) }

    /// Removes the run's folder (its rendered files) and the log's, when made by `csv`.
    func discard() {
        try? FileManager.default.removeItem(at: folder)
        if let log { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: log).deletingLastPathComponent().path) }
    }

    /// The SVG written to a file in the run's folder, for the renderer.
    func svgFile(_ name: String) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Data(map).write(to: url)
        return url
    }

    static let root = Renderer.root

    static func fixture(_ name: String) -> String {
        Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures/geo")!.path
    }

    static func temporaryFolder() throws -> URL {
        let url = ScratchFolder.path("geofence-map-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `GeofenceRun` over `fixes` (CSV) against `regions`, with a map when `format` is given.
    static func run(regions: [MonitoredRegion], fixes path: String, columns: LocationLogColumns = LocationLogColumns(),
                    options: MonitorOptions = MonitorOptions(), sampling: MapSampling = MapSampling(),
                    format: MapFormat? = .svg, pipelined: Bool = true) throws -> MapRun {
        let run = try GeofenceRun(regions: regions, options: options,
                                  source: .init(path: path, format: .csv, columns: columns))
        run.pipelined = pipelined
        let map = try format.map { _ in try GeofenceMap(regions: regions, sampling: sampling) }
        run.observer = map
        var result = MapRun(report: MapReport(frame: MapFrame(west: 0, scale: 1, originX: 0, originY: 0, width: 1, height: 1)),
                            folder: try temporaryFolder())
        // Only a log `csv` wrote (in a folder of its own) is discarded with the run: a fixture's folder
        // may itself lie under the temporary directory (a clone in /tmp), and must stay.
        if URL(fileURLWithPath: path).deletingLastPathComponent().lastPathComponent.hasPrefix("geofence-map-") { result.log = path }
        _ = try run.run(write: { result.ndjson += $0 })
        if let map, let format {
            result.report = try map.write(format) { result.map += $0 }
        }
        return result
    }

    /// A log written as CSV in a fresh folder.
    static func csv(_ fixes: [LocationFix]) throws -> String {
        var text = "device,time,lat,lon\n"
        for fix in fixes {
            text += "\(fix.device),\(RFC3339.string(from: fix.time)),\(fix.coordinate.latitude),\(fix.coordinate.longitude)\n"
        }
        let url = try temporaryFolder().appendingPathComponent("log.csv")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}
