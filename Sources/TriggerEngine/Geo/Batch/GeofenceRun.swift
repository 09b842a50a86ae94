import Foundation

/// The batch path of `trigger-eval geofence`: a location log streamed through a
/// `RegionMonitor`, events written in the order of the fixes that caused them.
///
/// Memory is O(regions + devices × regions they are in + one batch of rows): the
/// log is read in batches and never held.
public final class GeofenceRun {
    /// Where the fixes come from and how to read them.
    public struct Source: Sendable {
        public var path: String
        public var format: LocationLogFormat
        public var columns: LocationLogColumns
        /// The zone of CSV times written without an offset.
        public var zone: ZoneRules

        public init(path: String, format: LocationLogFormat, columns: LocationLogColumns = LocationLogColumns(),
                    zone: ZoneRules = .utc) {
            self.path = path
            self.format = format
            self.columns = columns
            self.zone = zone
        }
    }

    /// The output formats.
    public enum OutputFormat: String, Sendable, CaseIterable {
        case ndjson, csv
    }

    private let regions: [MonitoredRegion]
    private let options: MonitorOptions
    private let source: Source
    private let format: OutputFormat
    private let strict: Bool
    /// Rows per batch.
    package var batchSize = 65_536

    /// Prepares a run; nothing is read yet.
    public init(regions: [MonitoredRegion], options: MonitorOptions, source: Source, format: OutputFormat = .ndjson,
                strict: Bool = false) throws {
        self.regions = regions
        self.options = try options.validated()
        self.source = source
        self.format = format
        self.strict = strict
    }

    /// Reads the whole log and calls `write` with output bytes as they are ready,
    /// and `progress` (if given) after each batch with the rows read so far.
    /// - Throws: `InputFileError`, `DataError` (a bad header, a truncated GPX file,
    ///   or with `strict` the first bad or out-of-order row), or what `write` throws.
    public func run(write: ([UInt8]) throws -> Void, progress: ((Int) -> Void)? = nil) throws -> GeofenceSummary {
        let started = DispatchTime.now()
        let reader = try LocationLog.reader(path: source.path, format: source.format, columns: source.columns,
                                            zone: source.zone)
        let monitor = try RegionMonitor(regions: regions, options: options)
        var encoder = RegionEventEncoder(format: format, regions: regions)
        var devices = DeviceTable()
        var summary = GeofenceSummary()
        var batch = FixBatch()
        var out = encoder.header
        var more = true
        while more {
            batch.removeAll()
            more = try reader.read(into: &batch, devices: &devices, limit: batchSize)
            summary.rowsRead += batch.count
            for row in 0..<batch.count {
                let device = batch.device[row]
                if device < 0 {
                    let problem = DataError(batch.problems[row] ?? "bad row",
                                            at: InputLocation(file: source.path, line: batch.line[row]))
                    if strict { throw problem }
                    summary.badRows += 1
                    if summary.firstBadRow == nil { summary.firstBadRow = problem }
                    continue
                }
                let accuracy = batch.accuracy[row]
                let skipped = monitor.ingest(device: device, time: batch.time[row], x: batch.lon[row], y: batch.lat[row],
                                             accuracy: accuracy.isNaN ? nil : accuracy)
                if let skipped {
                    if strict && (skipped == .badValue || skipped == .outOfOrder) {
                        throw DataError(strictMessage(skipped, batch, row),
                                        at: InputLocation(file: source.path, line: batch.line[row]))
                    }
                    continue
                }
                for event in monitor.pendingEvents {
                    encoder.append(device: device, name: devices.names[Int(device)], region: event.region, kind: event.kind,
                                   time: batch.time[row], lat: batch.lat[row], lon: batch.lon[row], to: &out)
                }
                if out.count >= 1 << 16 {
                    try write(out)
                    out.removeAll(keepingCapacity: true)
                }
            }
            progress?(summary.rowsRead)
        }
        if !out.isEmpty { try write(out) }
        summary.counters = monitor.counters
        summary.devices = devices.names.count
        summary.seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        return summary
    }

    private func strictMessage(_ reason: MonitorCounters.SkipReason, _ batch: FixBatch, _ row: Int) -> String {
        switch reason {
        case .outOfOrder:
            return "fix at \(RFC3339.string(from: Date(timeIntervalSince1970: batch.time[row]))) is older than the device's previous fix (--strict)"
        default:
            return "lat \(batch.lat[row]), lon \(batch.lon[row]) or accuracy is out of range (latitude −90…90, longitude −180…180, accuracy ≥ 0) (--strict)"
        }
    }
}
