import Foundation
@_spi(Internals) import TriggerEngine

/// `geofence --map FILE`: a `GeofenceMap` of the run, written to FILE (SVG or
/// HTML, by its extension) through an `OutputSink`, so that a failed run leaves
/// no map behind.
final class MapOutput {
    let map: GeofenceMap
    let path: String
    private let format: MapFormat
    private let sink: OutputSink

    /// Prepares the map and opens its file; the legend is headed by the input
    /// files' names.
    /// - Throws: `InputFileError` when the file cannot be created, `MapSpoolError`.
    init(path: String, regions: [MonitoredRegion], regionsFile: String, fixesFile: String) throws {
        guard let format = MapFormat(pathExtensionOf: path) else {
            preconditionFailure("--map is validated to end in .svg or .html")
        }
        var style = MapStyle()
        style.title = "\(Self.fileName(regionsFile)) × \(Self.fileName(fixesFile))"
        map = try GeofenceMap(regions: regions, style: style)
        self.path = path
        self.format = format
        sink = try OutputSink(path: path)
    }

    /// Writes the map into the sink (not yet in place: see `commit`).
    func write() throws -> MapReport {
        try map.write(format) { bytes in try bytes.withUnsafeBufferPointer { try sink.write($0) } }
    }

    func commit() throws { try sink.commit() }

    func abandon() { sink.abandon() }

    private static func fileName(_ path: String) -> String {
        path == "-" ? "stdin" : URL(fileURLWithPath: path).lastPathComponent
    }

    /// The line for the summary on stderr.
    static func describe(_ report: MapReport, path: String) -> String {
        var text = "map: \(path): \(report.trackDevices) tracks, \(report.trackFixes) fixes and \(report.eventMarkers) events drawn"
        if let note = report.note { text += "; sampled: " + note }
        return text + "\n"
    }
}
