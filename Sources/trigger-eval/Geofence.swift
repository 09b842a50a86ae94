import ArgumentParser
import Foundation
@_spi(Internals) import TriggerEngine

/// `trigger-eval geofence`: enter, exit, dwell and cross events of a location log
/// against GeoJSON regions.
struct Geofence: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Enter/exit/dwell/cross events from a location log against GeoJSON regions.",
        discussion: """
            trigger-eval geofence --regions zones.geojson --fixes log.csv > events.ndjson
            trigger-eval geofence --regions zones.geojson --fixes bus.csv --columns device=vehicle_id,time=timestamp,lat=latitude,lon=longitude
            trigger-eval geofence --regions zones.geojson --fixes track.gpx --initial enter --hysteresis 25 --dwell 300 --cross
            trigger-eval geofence --regions zones.geojson --fixes log.csv --map run.html > events.ndjson
            """
    )

    enum InitialOption: String, ExpressibleByArgument, CaseIterable {
        case none, enter
    }

    @Option(help: "GeoJSON FeatureCollection of regions (Polygon, MultiPolygon, or Point with properties.radius).")
    var regions: String

    @Option(help: "The location log: CSV, NDJSON or GPX ('-' for stdin).")
    var fixes: String

    @Option(help: "Format of the log (default: from the extension): csv, ndjson or gpx.")
    var fixesFormat: String?

    @Option(help: "Map CSV header names: device=vehicle_id,time=timestamp,lat=latitude,lon=longitude,accuracy=…")
    var columns: String?

    @OptionGroup var zone: FileZoneOption

    @Option(help: "First fix of a device: none (only sets its state, Apple) or enter (inside is an enter, Android/Tile38).")
    var initial: InitialOption = .none

    @Option(help: "Exit hysteresis in metres: inside until farther than this from the region.")
    var hysteresis: Double = 0

    @Option(help: "Dwell time in seconds: a dwell event at the first fix this long after an enter.")
    var dwell: Double?

    @Flag(help: "Report cross events: two fixes outside whose segment passes through a region.")
    var cross = false

    @Option(help: "Ignore fixes whose accuracy is larger than this many metres.")
    var maxAccuracy: Double?

    @Flag(help: "Exit 65 at the first bad or out-of-order fix instead of skipping it.")
    var strict = false

    @Flag(help: "Repair invalid polygons with GEOS MakeValid (and close unclosed rings) instead of refusing them.")
    var repair = false

    @Option(help: "Output format: ndjson or csv.")
    var format: GeofenceRun.OutputFormat = .ndjson

    @OptionGroup var destination: OutputOption

    @Flag(name: .shortAndLong, help: "No summary on stderr.")
    var quiet = false

    @Option(help: "1: read and evaluate on one thread; 2 (default): read and parse the log on a second thread, both threads testing fixes.")
    var threads = 2

    @Option(help: "Also draw the run as a map: FILE.svg or FILE.html (one self-contained file; the events are unchanged).")
    var map: String?

    func validate() throws {
        guard hysteresis.isFinite, hysteresis >= 0 else { throw ValidationError("--hysteresis must be 0 or more metres") }
        if let dwell, !(dwell.isFinite && dwell > 0) { throw ValidationError("--dwell must be a positive number of seconds") }
        if let maxAccuracy, !(maxAccuracy >= 0) { throw ValidationError("--max-accuracy must be 0 or more metres") }
        guard threads == 1 || threads == 2 else { throw ValidationError("--threads must be 1 or 2") }
        if let columns {
            do { _ = try LocationLogColumns(mapping: columns) } catch { throw ValidationError(error.message) }
        }
        if let fixesFormat, LocationLogFormat(rawValue: fixesFormat) == nil {
            throw ValidationError("--fixes-format must be csv, ndjson or gpx, not '\(fixesFormat)'")
        }
        if let map, MapFormat(pathExtensionOf: map) == nil || map == destination.output {
            throw ValidationError("--map must name a .svg or .html file other than the output, not '\(map)'")
        }
        if fixesFormat == nil && LocationLogFormat(pathExtensionOf: fixes) == nil {
            throw ValidationError("cannot tell the format of '\(fixes)' from its name; give --fixes-format csv, ndjson or gpx")
        }
    }

    func run() throws {
        let format = fixesFormat.flatMap(LocationLogFormat.init(rawValue:)) ?? LocationLogFormat(pathExtensionOf: fixes)!
        let columns = try columns.map { text throws(DataError) in try LocationLogColumns(mapping: text) } ?? LocationLogColumns()
        let zone = try self.zone.rules()
        let loaded = try MonitoredRegion.load(featureCollectionAt: regions, repair: repair)
        let options = MonitorOptions(initial: initial == .enter ? .enter : .none, hysteresis: hysteresis, dwell: dwell,
                                     cross: cross, maxAccuracy: maxAccuracy)
        let run = try GeofenceRun(regions: loaded, options: options,
                                  source: .init(path: fixes, format: format, columns: columns, zone: zone),
                                  format: self.format, strict: strict)
        run.pipelined = threads == 2
        let mapOutput = try map.map { path in try MapOutput(path: path, regions: loaded, regionsFile: regions, fixesFile: fixes) }
        run.observer = mapOutput?.map
        let progress = ProgressLine(unit: "fixes")
        let sink = try OutputSink(path: destination.output)
        let summary: GeofenceSummary
        let mapReport: MapReport?
        do {
            summary = try run.run(write: { bytes in try bytes.withUnsafeBufferPointer { try sink.write($0) } },
                                  flush: { try sink.flush() }, progress: { progress.update($0) })
            progress.finish()
            mapReport = try mapOutput?.write()
            try sink.commit()
            try mapOutput?.commit()
        } catch {
            progress.finish()
            sink.abandon()
            mapOutput?.abandon()
            throw error
        }
        if !quiet {
            Diagnostics.write(Self.describe(summary))
            if let mapReport, let mapOutput { Diagnostics.write(MapOutput.describe(mapReport, path: mapOutput.path)) }
        }
    }

    /// The summary lines for stderr.
    static func describe(_ summary: GeofenceSummary) -> String {
        let counters = summary.counters
        var skipped: [String] = []
        if summary.badRows > 0 { skipped.append("\(summary.badRows) bad row" + (summary.badRows == 1 ? "" : "s")) }
        for reason in MonitorCounters.SkipReason.allCases {
            if let count = counters.skipped[reason], count > 0 { skipped.append("\(count) \(reason.rawValue)") }
        }
        let events = RegionEvent.Kind.allCases.map { "\(counters.events[$0] ?? 0) \($0.rawValue)" }
        var text = "geofence: \(summary.rowsRead) fixes read from \(summary.devices) devices, \(counters.used) used"
        text += skipped.isEmpty ? "" : ", skipped: " + skipped.joined(separator: ", ")
        text += "; events: " + events.joined(separator: ", ")
        text += String(format: "; %.2f s, %.0f fixes/s\n", summary.seconds, summary.fixesPerSecond)
        if let first = summary.firstBadRow {
            text += "warning: bad rows were skipped; the first: \(first)\n"
        }
        return text
    }
}

/// A one-line progress counter on stderr, shown only when stderr is a terminal
/// and the work has taken more than a second (the contract's rule).
final class ProgressLine {
    private let unit: String
    private let started = DispatchTime.now()
    private let enabled = isatty(2) == 1
    private var shown = false

    init(unit: String) {
        self.unit = unit
    }

    func update(_ count: Int) {
        guard enabled else { return }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        guard seconds > 1 else { return }
        shown = true
        Diagnostics.write(String(format: "\r%12d %@, %.1f s, %.0f/s ", count, unit, seconds, Double(count) / seconds))
    }

    func finish() {
        if shown { Diagnostics.write("\r\u{1B}[K") }
        shown = false
    }
}
extension GeofenceRun.OutputFormat: ExpressibleByArgument {}
