import Foundation

/// What reading a location log found besides its fixes.
public struct LocationLogSummary: Sendable, Equatable {
    /// Fixes handed over.
    public var fixes = 0
    /// Rows that could not be read (a bad number, a missing field), skipped.
    public var badRows = 0
    /// The first of them, with its file and line.
    public var firstBadRow: DataError?
}

extension LocationLog {
    /// Reads the log at `path` and calls `body` with each fix, in file order,
    /// a batch at a time: memory stays O(batch) whatever the file's size.
    /// Rows that cannot be read are skipped and counted (the first is kept);
    /// values are handed over as they are (a `RegionMonitor` skips a latitude
    /// out of range, or a fix older than the device's last).
    /// - Parameters:
    ///   - path: the file, `-` for standard input.
    ///   - format: CSV, NDJSON or GPX; by default from the file's extension.
    ///   - columns: CSV header names of the fields, when they are not `device,time,lat,lon,accuracy`.
    ///   - zone: the zone of CSV and NDJSON times written without an offset.
    ///   - body: called with each fix; what it throws ends the reading.
    /// - Throws: `InputError.file` when the file cannot be read, `InputError.data`
    ///   when it cannot be read on at all (a CSV without the needed columns, a
    ///   truncated GPX file) or the format cannot be told from the name, or
    ///   `InputError.handler` with what `body` threw.
    @discardableResult
    public static func forEachFix(inFileAt path: String, format: LocationLogFormat? = nil,
                                  columns: LocationLogColumns = LocationLogColumns(), zone: ZoneRules = .utc,
                                  _ body: (LocationFix) throws -> Void) throws(InputError) -> LocationLogSummary {
        try InputError.reading {
            guard let format = format ?? LocationLogFormat(pathExtensionOf: path) else {
                throw DataError("cannot tell the format of '\(path)' from its extension (expected .csv, .ndjson or .gpx)")
            }
            return try forEachFix(opening: path, named: path, format: format, columns: columns, zone: zone) {
                try InputError.calling(body, with: $0)
            }
        }
    }

    /// `forEachFix(inFileAt:…)` over a log given as bytes; messages name it `name`.
    @discardableResult
    public static func forEachFix(in data: Data, format: LocationLogFormat, name: String = "log",
                                  columns: LocationLogColumns = LocationLogColumns(), zone: ZoneRules = .utc,
                                  _ body: (LocationFix) throws -> Void) throws(InputError) -> LocationLogSummary {
        try InputError.reading {
            try TemporaryCopy.with(data, suffix: "." + format.rawValue, name: name) { copy in
                do {
                    return try forEachFix(opening: copy, named: name, format: format, columns: columns, zone: zone) {
                        try InputError.calling(body, with: $0)
                    }
                } catch let error as DataError where error.location?.file == copy {
                    throw DataError(error.message, at: InputLocation(file: name, line: error.location?.line))
                } catch let error as InputFileError where error.path == copy {
                    throw InputFileError(path: name, reason: error.reason)
                }
            }
        }
    }

    /// All the fixes of the log at `path`, in file order, and what was skipped.
    /// - Throws: as `forEachFix(inFileAt:…)`.
    public static func fixes(inFileAt path: String, format: LocationLogFormat? = nil,
                             columns: LocationLogColumns = LocationLogColumns(),
                             zone: ZoneRules = .utc) throws(InputError) -> (fixes: [LocationFix], summary: LocationLogSummary) {
        var fixes: [LocationFix] = []
        let summary = try forEachFix(inFileAt: path, format: format, columns: columns, zone: zone) { fixes.append($0) }
        return (fixes, summary)
    }

    /// Reads `path` batch by batch, naming it `name` in the bad rows' locations.
    private static func forEachFix(opening path: String, named name: String, format: LocationLogFormat,
                                   columns: LocationLogColumns, zone: ZoneRules,
                                   _ body: (LocationFix) throws -> Void) throws -> LocationLogSummary {
        let reader = try reader(path: path, format: format, columns: columns, zone: zone)
        var devices = DeviceTable()
        var batch = FixBatch()
        var summary = LocationLogSummary()
        var more = true
        while more {
            batch.removeAll()
            more = try reader.read(into: &batch, devices: &devices, limit: 65_536)
            for (position, row) in batch.rows.enumerated() {
                guard row.device >= 0 else {
                    summary.badRows += 1
                    if summary.firstBadRow == nil {
                        summary.firstBadRow = DataError(batch.problems[position] ?? "bad row",
                                                        at: InputLocation(file: name, line: Int(row.line)))
                    }
                    continue
                }
                summary.fixes += 1
                try body(LocationFix(device: devices.names[Int(row.device)], time: Date(timeIntervalSince1970: row.time),
                                     coordinate: Coordinate(latitude: row.lat, longitude: row.lon),
                                     accuracy: row.accuracy.isNaN ? nil : row.accuracy))
            }
        }
        return summary
    }
}
