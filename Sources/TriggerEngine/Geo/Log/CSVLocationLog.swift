#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a CSV location log (RFC 4180 fields: quoted or not, `""` inside quotes)
/// in blocks through `LineReader`, parsing the fields it needs straight from
/// the bytes. A record must fit on one line.
package final class CSVLocationLog: LocationLogReading {
    private let reader: LineReader
    private let zone: ZoneRules
    /// Column positions of device, time, lat, lon, and accuracy (−1: none).
    private let device: Int, time: Int, lat: Int, lon: Int, accuracy: Int
    private let lastNeeded: Int
    // One reader, one thread, no overlapping accesses: no run-time exclusivity checks.
    /// The needed fields' byte ranges in the current line; owned here, freed in `deinit`
    /// (a plain buffer: the per-field store is on the hot path).
    private let ranges: UnsafeMutablePointer<Range<Int>>
    @exclusivity(unchecked) private var unescaped: [UInt8] = []
    /// The last time field and its value: logs sorted by time repeat instants
    /// (every device reporting in the same second), and a repeat costs one compare.
    @exclusivity(unchecked) private var lastTimeField: [UInt8] = []
    @exclusivity(unchecked) private var lastTime = 0.0

    /// Opens the log and maps its header.
    /// - Throws: `InputFileError`; `DataError` at line 1 when a column is missing.
    package init(path: String, columns: LocationLogColumns, zone: ZoneRules) throws {
        reader = try LineReader(path: path)
        self.zone = zone
        var header: [String] = []
        while let line = try reader.nextLine() {
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            header = Self.headerNames(line)
            break
        }
        let location = InputLocation(file: path, line: max(1, reader.lineNumber))
        guard !header.isEmpty else { throw DataError("the log is empty: expected a header naming device,time,lat,lon", at: location) }
        func position(_ field: String, required: Bool) throws(DataError) -> Int {
            let name = columns.names[field] ?? field
            if let index = header.firstIndex(of: name) { return index }
            if let index = header.firstIndex(where: { $0.lowercased() == name.lowercased() }) { return index }
            guard required || name != field else { return -1 }
            let mapped = name == field ? "" : " (mapped by --columns \(field)=\(name))"
            throw DataError("the header has no column '\(name)'\(mapped) for the fix's \(field); it has: "
                            + header.joined(separator: ", ") + "; map names with --columns \(field)=NAME", at: location)
        }
        device = try position("device", required: true)
        time = try position("time", required: true)
        lat = try position("lat", required: true)
        lon = try position("lon", required: true)
        accuracy = try position("accuracy", required: false)
        lastNeeded = max(device, time, lat, lon, accuracy)
        ranges = .allocate(capacity: lastNeeded + 1)
        ranges.initialize(repeating: 0..<0, count: lastNeeded + 1)
    }

    deinit {
        ranges.deallocate()
    }

    private static func headerNames(_ line: UnsafeBufferPointer<UInt8>) -> [String] {
        var names: [String] = []
        var ranges: [Range<Int>] = []
        var scratch: [UInt8] = []
        var start = 0
        while start <= line.count {
            guard let (range, next, _) = field(line, from: start, unescapedInto: &scratch) else { break }
            ranges.append(range)
            var name = String(decoding: UnsafeBufferPointer(rebasing: line[range]), as: UTF8.self)
            if name.hasPrefix("\u{FEFF}") { name.removeFirst() }
            names.append(name.trimmingASCIISpaces())
            start = next
        }
        return names
    }

    /// The field starting at `start`: its content range (inside quotes), where the
    /// next field starts, and whether quotes were escaped inside it (then its
    /// content is in `unescapedInto`). `nil` for an unterminated quote.
    @inline(__always)
    private static func field(_ line: UnsafeBufferPointer<UInt8>, from start: Int,
                              unescapedInto scratch: inout [UInt8]) -> (Range<Int>, Int, Bool)? {
        var index = start
        if index < line.count && line[index] == 0x22 {
            index += 1
            let contentStart = index
            var escaped = false
            while true {
                guard index < line.count else { return nil }
                if line[index] == 0x22 {
                    if index + 1 < line.count && line[index + 1] == 0x22 { escaped = true; index += 2; continue }
                    break
                }
                index += 1
            }
            let range = contentStart..<index
            index += 1
            while index < line.count && line[index] != 0x2C { index += 1 }
            if escaped {
                scratch.removeAll(keepingCapacity: true)
                var position = range.lowerBound
                while position < range.upperBound {
                    scratch.append(line[position])
                    position += line[position] == 0x22 ? 2 : 1
                }
            }
            return (range, index + 1, escaped)
        }
        // Unquoted: up to the next comma, found with memchr.
        guard index < line.count, let comma = memchr(line.baseAddress! + index, 0x2C, line.count - index) else {
            return (start..<line.count, line.count + 1, false)
        }
        let end = line.baseAddress!.distance(to: comma.assumingMemoryBound(to: UInt8.self))
        return (start..<end, end + 1, false)
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
            if line.isEmpty { continue }
            added += 1
            parse(line, into: &batch, devices: &devices)
        }
        return true
    }

    @inline(__always)
    private func parse(_ line: UnsafeBufferPointer<UInt8>, into batch: inout FixBatch, devices: inout DeviceTable) {
        let number = reader.lineNumber
        var start = 0
        var deviceIndex: Int32 = -1
        for column in 0...lastNeeded {
            guard start <= line.count, let (range, next, escaped) = Self.field(line, from: start, unescapedInto: &unescaped) else {
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
                let problem = start > line.count ? "the row has \(column) fields; the header needs at least \(lastNeeded + 1)"
                                                 : "a quoted field is not closed on this line"
                batch.appendProblem(problem, line: number)
                return
            }
            ranges[column] = range
            if column == device {
                deviceIndex = escaped ? unescaped.withUnsafeBufferPointer { devices.index(of: $0) }
                                      : devices.index(of: UnsafeBufferPointer(rebasing: line[range]))
            }
            start = next
        }
        let fieldTime = UnsafeBufferPointer(rebasing: line[ranges[time]])
        let instant: Double
        if lastTimeField.withUnsafeBufferPointer({ ShortBytes.equal($0, fieldTime) }) {
            instant = lastTime
        } else {
            guard let parsed = FieldParsing.instant(fieldTime, zone: zone) else {
                batch.appendProblem("time '\(String(decoding: fieldTime, as: UTF8.self))' is not RFC 3339, YYYY-MM-DD HH:MM:SS or epoch seconds", line: number)
                return
            }
            guard FieldParsing.instantRange.contains(parsed) else {
                batch.appendProblem(FieldParsing.outOfRangeMessage("time", String(decoding: fieldTime, as: UTF8.self)), line: number)
                return
            }
            instant = parsed
            lastTimeField.removeAll(keepingCapacity: true)
            lastTimeField.append(contentsOf: fieldTime)
            lastTime = parsed
        }
        let fieldLat = UnsafeBufferPointer(rebasing: line[ranges[lat]])
        guard let latitude = FieldParsing.number(fieldLat) else {
            batch.appendProblem("lat '\(String(decoding: fieldLat, as: UTF8.self))' is not a number", line: number)
            return
        }
        let fieldLon = UnsafeBufferPointer(rebasing: line[ranges[lon]])
        guard let longitude = FieldParsing.number(fieldLon) else {
            batch.appendProblem("lon '\(String(decoding: fieldLon, as: UTF8.self))' is not a number", line: number)
            return
        }
        var accuracyValue = Double.nan
        if accuracy >= 0 && !ranges[accuracy].isEmpty {
            let fieldAccuracy = UnsafeBufferPointer(rebasing: line[ranges[accuracy]])
            guard let value = FieldParsing.number(fieldAccuracy) else {
                batch.appendProblem("accuracy '\(String(decoding: fieldAccuracy, as: UTF8.self))' is not a number", line: number)
                return
            }
            accuracyValue = value
        }
        batch.append(device: deviceIndex, time: instant, lat: latitude, lon: longitude, accuracy: accuracyValue, line: number)
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    func trimmingASCIISpaces() -> String {
        var view = Substring(self)
        while let first = view.first, first == " " || first == "\t" { view.removeFirst() }
        while let last = view.last, last == " " || last == "\t" { view.removeLast() }
        return String(view)
    }
}
