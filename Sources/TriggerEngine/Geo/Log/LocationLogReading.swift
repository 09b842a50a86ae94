/// A reader of one location log format: fills batches of rows in file order.
package protocol LocationLogReading: AnyObject {
    /// Appends up to `limit` rows to `batch`, interning device names in `devices`;
    /// returns `false` once the input is exhausted (the batch may still have rows).
    /// A line-based reader also ends the batch where no further line is ready
    /// (`FixBatch.endsWhereInputWaits`).
    /// - Throws: `DataError` for input that cannot be read on at all (a truncated
    ///   GPX file), `InputFileError` on a read error.
    func read(into batch: inout FixBatch, devices: inout DeviceTable, limit: Int) throws -> Bool

    /// Makes a read that waits for input give up once `isStopped` says so
    /// (`LineReader.stopWaiting(when:)`).
    func stopWaiting(when isStopped: @escaping @Sendable () -> Bool)
}

/// Location logs (CSV, NDJSON, GPX) read as `LocationFix` values: the readers
/// of `trigger-eval geofence`, for an embedder.
public enum LocationLog {
    /// A reader for `path` in `format`; a CSV reader checks the header at once.
    package static func reader(path: String, format: LocationLogFormat, columns: LocationLogColumns,
                               zone: ZoneRules) throws -> any LocationLogReading {
        switch format {
        case .csv: return try CSVLocationLog(path: path, columns: columns, zone: zone)
        case .ndjson: return try NDJSONLocationLog(path: path, zone: zone)
        case .gpx: return try GPXLocationLog(path: path)
        }
    }
}
