import Foundation

/// Reads one device's fixes from a location log (CSV, NDJSON or GPX, as
/// `trigger-eval geofence` reads them) for a scenario.
enum FixLogLoader {
    /// The fixes of `device` (or of the log's only device), in file order, and
    /// how many rows were skipped as bad.
    /// - Throws: `DataError` when the log has several devices and none is named,
    ///   or the named one is absent; `InputFileError` when it cannot be read.
    static func fixes(path: String, device: String?) throws -> (fixes: [LocationFix], skipped: Int) {
        guard let format = LocationLogFormat(pathExtensionOf: path) else {
            throw DataError("fixes '\(path)': unknown log format (expected .csv, .ndjson or .gpx)")
        }
        let reader = try LocationLog.reader(path: path, format: format, columns: LocationLogColumns(), zone: .utc)
        var batch = FixBatch()
        var devices = DeviceTable()
        var rows: [FixBatch.Row] = []
        var skipped = 0
        var more = true
        while more {
            batch.removeAll()
            more = try reader.read(into: &batch, devices: &devices, limit: 4096)
            rows += batch.rows
            skipped += batch.problems.count
        }
        let names = devices.names
        let wanted: Int32
        if let device {
            guard let index = names.firstIndex(of: device) else {
                throw DataError("fixes '\(path)': no device '\(device)' (the log has \(names.prefix(5).joined(separator: ", ")))")
            }
            wanted = Int32(index)
        } else {
            guard Set(rows.map(\.device)).count <= 1 else {
                throw DataError("fixes '\(path)' holds \(Set(rows.map(\.device)).count) devices; name one with \"device\"")
            }
            wanted = rows.first?.device ?? 0
        }
        let fixes = rows.filter { $0.device == wanted }.map { row in
            LocationFix(device: names[Int(wanted)], time: Date(timeIntervalSince1970: row.time),
                        coordinate: Coordinate(latitude: row.lat, longitude: row.lon),
                        accuracy: row.accuracy.isNaN ? nil : row.accuracy)
        }
        return (fixes, skipped)
    }
}
