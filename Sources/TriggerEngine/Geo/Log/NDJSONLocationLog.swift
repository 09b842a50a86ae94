import Foundation

/// Reads an NDJSON location log: one object a line with `device` (string or
/// number), `time` (RFC 3339 string or epoch seconds), `lat`, `lon` and
/// optionally `accuracy` (numbers). Lines are decoded by `JSONDecoder` into plain
/// values (exact numbers; see `GeoJSON`).
package final class NDJSONLocationLog: LocationLogReading {
    private let reader: LineReader
    private let zone: ZoneRules
    private let decoder = JSONDecoder()

    package init(path: String, zone: ZoneRules) throws {
        reader = try LineReader(path: path)
        self.zone = zone
    }

    package func stopWaiting(when isStopped: @escaping @Sendable () -> Bool) {
        reader.stopWaiting(when: isStopped)
    }

    package func read(into batch: inout FixBatch, devices: inout DeviceTable, limit: Int) throws -> Bool {
        var added = 0
        while added < limit {
            guard let line = try reader.nextLine(stoppingToWait: added > 0) else {
                // Where a log on a pipe pauses, the batch ends (`endsWhereInputWaits`).
                batch.endsWhereInputWaits = reader.stoppedToWait
                return reader.stoppedToWait
            }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            added += 1
            let number = reader.lineNumber
            guard let value = try? decoder.decode(GeoJSON.Value.self, from: Data(line)), case .object(let object) = value else {
                batch.appendProblem("not a JSON object", line: number)
                continue
            }
            let deviceName: String
            if let text = object["device"]?.text {
                deviceName = text
            } else if let value = GeoJSON.number(object["device"]) {
                deviceName = value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
            } else {
                batch.appendProblem("missing \"device\" (a string or number)", line: number)
                continue
            }
            var instant: Double?
            if let text = object["time"]?.text {
                var bytes = Array(text.utf8)
                instant = bytes.withUnsafeMutableBufferPointer { FieldParsing.instant(UnsafeBufferPointer($0), zone: zone) }
            } else {
                instant = GeoJSON.number(object["time"])
            }
            guard let instant else {
                batch.appendProblem("\"time\" must be an RFC 3339 string or epoch seconds", line: number)
                continue
            }
            guard FieldParsing.instantRange.contains(instant) else {
                batch.appendProblem(FieldParsing.outOfRangeMessage("\"time\"", object["time"]?.text ?? String(instant)), line: number)
                continue
            }
            guard let lat = GeoJSON.number(object["lat"]), let lon = GeoJSON.number(object["lon"]) else {
                batch.appendProblem("\"lat\" and \"lon\" must be numbers", line: number)
                continue
            }
            var accuracy = Double.nan
            if let value = object["accuracy"], value != .null {
                guard let number = GeoJSON.number(value) else {
                    batch.appendProblem("\"accuracy\" must be a number", line: number)
                    continue
                }
                accuracy = number
            }
            batch.append(device: devices.index(of: deviceName), time: instant, lat: lat, lon: lon, accuracy: accuracy,
                         line: number)
        }
        return true
    }
}
