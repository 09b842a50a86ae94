import Foundation

/// Reads the track points of a GPX 1.0 or 1.1 file (`<trk><name>…<trkseg><trkpt
/// lat="…" lon="…"><time>…</time></trkpt>`), with a small scanner of its own
/// that counts lines for messages. The device is the track's `<name>`, else the
/// file's name. Waypoints and routes are not fixes and are passed over.
///
/// The file is streamed: the scanner sees a window of the file that `LineReader`
/// refills on demand and that is cut back at each tag, so memory stays at one
/// read block plus the longest tag. A file that ends inside an element is refused
/// as truncated, naming where it opened.
package final class GPXLocationLog: LocationLogReading {
    private let path: String
    private let reader: LineReader
    /// The window of the file being scanned; `index` is a position in it.
    private var bytes: [UInt8] = []
    private var isExhausted = false
    private var index = 0
    private var line = 1
    private var trackName: String?
    private var trackLine = 0
    private var inTrack = false
    private var inSegment = false
    private var sawRoot = false
    private var rootClosed = false

    package init(path: String) throws {
        self.path = path
        reader = try LineReader(path: path)
    }

    /// Whether the byte at `position` of the window exists, reading more of the
    /// file when the window ends before it.
    private func has(_ position: Int) throws -> Bool {
        while position >= bytes.count {
            guard !isExhausted, let next = try reader.nextLine() else {
                isExhausted = true
                return false
            }
            bytes.append(contentsOf: next)
            bytes.append(0x0A) // LineReader drops line ends; the scanner counts them.
        }
        return true
    }

    private var fileDevice: String { URL(fileURLWithPath: path).lastPathComponent }

    private func error(_ message: String, line: Int? = nil) -> DataError {
        DataError(message, at: InputLocation(file: path, line: line ?? self.line))
    }

    package func stopWaiting(when isStopped: @escaping @Sendable () -> Bool) {
        reader.stopWaiting(when: isStopped)
    }

    package func read(into batch: inout FixBatch, devices: inout DeviceTable, limit: Int) throws -> Bool {
        var added = 0
        while added < limit {
            guard let tag = try nextTag() else {
                if inTrack { throw error("the GPX file ends inside <trk> opened at line \(trackLine): truncated?") }
                if sawRoot && !rootClosed { throw error("the GPX file ends before </gpx>: truncated?") }
                if !sawRoot { throw error("not a GPX file: no <gpx> element", line: 1) }
                return false
            }
            switch (tag.name, tag.isClosing) {
            case ("gpx", false): sawRoot = true
            case ("gpx", true): rootClosed = true
            case ("trk", false):
                inTrack = true
                trackLine = tag.line
                trackName = nil
            case ("trk", true): inTrack = false
            case ("trkseg", false): inSegment = true
            case ("trkseg", true): inSegment = false
            case ("name", false) where inTrack && !inSegment && !tag.isEmpty:
                trackName = try text(until: "name").trimmingCharacters(in: .whitespacesAndNewlines)
            case ("trkpt", false):
                added += 1
                try trackPoint(tag, into: &batch, devices: &devices)
            default: break
            }
        }
        return true
    }

    private func trackPoint(_ tag: Tag, into batch: inout FixBatch, devices: inout DeviceTable) throws {
        let name = trackName.flatMap { $0.isEmpty ? nil : $0 } ?? fileDevice
        var time: String?
        if !tag.isEmpty {
            while true {
                guard let inner = try nextTag() else {
                    throw error("the GPX file ends inside <trkpt> opened at line \(tag.line): truncated?")
                }
                if inner.name == "trkpt" && inner.isClosing { break }
                if inner.name == "time" && !inner.isClosing && !inner.isEmpty {
                    time = try text(until: "time").trimmingCharacters(in: .whitespacesAndNewlines)
                }
            }
        }
        guard let latText = tag.attributes["lat"], let lonText = tag.attributes["lon"],
              let lat = Double(latText), let lon = Double(lonText) else {
            batch.appendProblem("<trkpt> needs numeric lat and lon attributes", line: tag.line)
            return
        }
        guard let time else {
            batch.appendProblem("<trkpt> has no <time>", line: tag.line)
            return
        }
        var timeBytes = Array(time.utf8)
        guard let instant = timeBytes.withUnsafeMutableBufferPointer({
            FieldParsing.instant(UnsafeBufferPointer($0), zone: .utc)
        }) else {
            batch.appendProblem("<time> '\(time)' is not an RFC 3339 instant", line: tag.line)
            return
        }
        guard FieldParsing.instantRange.contains(instant) else {
            batch.appendProblem(FieldParsing.outOfRangeMessage("<time>", time), line: tag.line)
            return
        }
        batch.append(device: devices.index(of: name), time: instant, lat: lat, lon: lon, accuracy: .nan, line: tag.line)
    }

    struct Tag {
        var name: String
        var isClosing: Bool
        var isEmpty: Bool
        var attributes: [String: String]
        var line: Int
    }

    /// The next element tag, skipping text, comments, declarations and CDATA.
    private func nextTag() throws -> Tag? {
        // Nothing before the tag about to be read is looked at again.
        if index >= 1 << 16 {
            bytes.removeSubrange(0..<index)
            index = 0
        }
        while try has(index) {
            let byte = bytes[index]
            if byte == 0x0A { line += 1 }
            if byte != UInt8(ascii: "<") { index += 1; continue }
            let start = index, startLine = line
            if try matches("<!--") { try skip(past: "-->", opened: "<!--", at: startLine); continue }
            if try matches("<![CDATA[") { try skip(past: "]]>", opened: "<![CDATA[", at: startLine); continue }
            if try matches("<?") || matches("<!") { try skip(past: ">", opened: "<", at: startLine); continue }
            try skip(past: ">", opened: "<", at: startLine)
            var body = bytes[(start + 1)..<(index - 1)]
            var tag = Tag(name: "", isClosing: false, isEmpty: false, attributes: [:], line: startLine)
            if body.first == UInt8(ascii: "/") { tag.isClosing = true; body = body.dropFirst() }
            if body.last == UInt8(ascii: "/") { tag.isEmpty = true; body = body.dropLast() }
            let text = String(decoding: body, as: UTF8.self)
            let nameEnd = text.firstIndex(where: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }) ?? text.endIndex
            var name = String(text[..<nameEnd])
            if let colon = name.lastIndex(of: ":") { name = String(name[name.index(after: colon)...]) }
            tag.name = name
            if name == "trkpt" { tag.attributes = Self.attributes(text[nameEnd...]) }
            return tag
        }
        return nil
    }

    private func matches(_ prefix: String) throws -> Bool {
        let prefix = Array(prefix.utf8)
        return try has(index + prefix.count - 1) && bytes[index..<(index + prefix.count)].elementsEqual(prefix)
    }

    /// Moves past `terminator`, counting lines; a missing terminator means the file was cut.
    private func skip(past terminator: String, opened: String, at startLine: Int) throws {
        let terminator = Array(terminator.utf8)
        while try has(index) {
            if bytes[index] == terminator[0], try matches(String(decoding: terminator, as: UTF8.self)) {
                index += terminator.count
                return
            }
            if bytes[index] == 0x0A { line += 1 }
            index += 1
        }
        throw error("the GPX file ends inside a tag ('\(opened)…') opened at line \(startLine): truncated?")
    }

    /// The text up to `</name>`, entities decoded.
    private func text(until name: String) throws -> String {
        let start = index, startLine = line
        while try has(index), bytes[index] != UInt8(ascii: "<") {
            if bytes[index] == 0x0A { line += 1 }
            index += 1
        }
        guard try has(index) else { throw error("the GPX file ends inside <\(name)> opened at line \(startLine): truncated?") }
        let raw = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let closing = try nextTag(), closing.name == name, closing.isClosing else {
            throw error("<\(name)> opened at line \(startLine) is not closed by </\(name)>")
        }
        return Self.decodingEntities(raw)
    }

    private static func attributes(_ text: Substring) -> [String: String] {
        var result: [String: String] = [:]
        var rest = text[...]
        while let equals = rest.firstIndex(of: "=") {
            let key = rest[..<equals].trimmingCharacters(in: .whitespacesAndNewlines)
            var valueStart = rest.index(after: equals)
            while valueStart < rest.endIndex, rest[valueStart] == " " { valueStart = rest.index(after: valueStart) }
            guard valueStart < rest.endIndex else { break }
            let quote = rest[valueStart]
            guard quote == "\"" || quote == "'" else { break }
            let contentStart = rest.index(after: valueStart)
            guard let contentEnd = rest[contentStart...].firstIndex(of: quote) else { break }
            result[String(key)] = decodingEntities(String(rest[contentStart..<contentEnd]))
            rest = rest[rest.index(after: contentEnd)...]
        }
        return result
    }

    private static func decodingEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
