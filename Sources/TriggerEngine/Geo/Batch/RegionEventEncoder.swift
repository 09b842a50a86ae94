/// Writes events as the contract's NDJSON or CSV lines, into a byte buffer:
/// `{"device":"…","region":"…","event":"enter","time":"…Z","lat":…,"lon":…}`.
/// Identifiers are escaped once each, not once per event.
package struct RegionEventEncoder: Sendable {
    package typealias Format = GeofenceRun.OutputFormat

    package let format: Format
    // Each line is a few copies of pieces made once, the constant text fused to
    // the identifiers around it: a `String` append per piece was a tenth of a
    // run. The pieces live in flat byte tables read through plain buffers: an
    // array per piece was retained and released at every copy (atomic
    // operations, five per event).
    /// Per region: its field and what follows it up to the event name
    /// (`"zone-1","event":"` or `zone-1,`).
    private let regionPieces: Pieces
    /// Per kind (`RegionEvent.Kind.allCases` order): its name and what follows
    /// up to the time; then the text between latitude and longitude.
    private let fixedPieces: Pieces
    /// Per device seen in an event: what comes before and after its field up to
    /// the region's (`{"device":"d0","region":` or `d0,`), made on its first event.
    private var devicePieces = Pieces()
    /// Per device index: its piece in `devicePieces`, −1 before its first event.
    private var deviceSlots: [Int32] = []
    /// The last instant formatted, and its text with what follows up to the latitude.
    private var lastTime = Double.nan
    private var lastInstant: [UInt8] = []

    /// Byte strings in one table: piece i is `bytes[starts[i] ..< starts[i + 1]]`.
    private struct Pieces {
        var bytes: [UInt8] = []
        var starts: [Int32] = [0]

        mutating func add(_ piece: [UInt8]) {
            bytes += piece
            starts.append(Int32(bytes.count))
        }

        var count: Int { starts.count - 1 }

        /// Bytes in piece `index`.
        @inline(__always)
        func length(_ index: Int) -> Int {
            starts.withUnsafeBufferPointer { Int($0[index + 1] - $0[index]) }
        }

        /// Copies piece `index` to `target`; returns the byte after it.
        @inline(__always)
        func copy(_ index: Int, to target: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
            bytes.withUnsafeBufferPointer { bytes in
                starts.withUnsafeBufferPointer { starts in
                    Self.copy(UnsafeBufferPointer(rebasing: bytes[Int(starts[index])..<Int(starts[index + 1])]), to: target)
                }
            }
        }

        @inline(__always)
        static func copy(_ piece: UnsafeBufferPointer<UInt8>, to target: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
            if let base = piece.baseAddress { target.initialize(from: base, count: piece.count) }
            return target + piece.count
        }
    }

    package init(format: Format, regions: [MonitoredRegion]) {
        self.format = format
        var regionPieces = Pieces()
        for region in regions {
            regionPieces.add(Self.field(region.identifier, format) + Array((format == .ndjson ? #","event":""# : ",").utf8))
        }
        self.regionPieces = regionPieces
        var fixedPieces = Pieces()
        for kind in RegionEvent.Kind.allCases {
            fixedPieces.add(Array((kind.rawValue + (format == .ndjson ? #"","time":""# : ",")).utf8))
        }
        fixedPieces.add(Array((format == .ndjson ? #","lon":"# : ",").utf8))
        self.fixedPieces = fixedPieces
    }

    /// The CSV header line, or nothing for NDJSON.
    package var header: [UInt8] {
        format == .csv ? Array("device,region,event,time,lat,lon\n".utf8) : []
    }

    /// Appends one event line to `out`.
    package mutating func append(device: Int32, name: @autoclosure () -> String, region: Int32, kind: RegionEvent.Kind,
                                 time: Double, lat: Double, lon: Double, to out: inout [UInt8]) {
        let deviceIndex = Int(device)
        if deviceIndex >= deviceSlots.count {
            deviceSlots.append(contentsOf: repeatElement(-1, count: deviceIndex + 1 - deviceSlots.count))
        }
        if deviceSlots[deviceIndex] < 0 {
            let field = Self.field(name(), format)
            deviceSlots[deviceIndex] = Int32(devicePieces.count)
            devicePieces.add(format == .ndjson ? Array(#"{"device":"#.utf8) + field + Array(#","region":"#.utf8) : field + [0x2C])
        }
        if time != lastTime {
            // Logs come in time order, many fixes at one instant: format each instant once.
            let micros = (time * 1_000_000).rounded()
            let (seconds, fraction) = CivilDate.floorDivide(Int(micros), 1_000_000)
            lastInstant = Array((RFC3339.string(epochSeconds: seconds, microseconds: fraction)
                                 + (format == .ndjson ? #"","lat":"# : ",")).utf8)
            lastTime = time
        }
        // The whole line in one reservation, its pieces copied in place: eight
        // appends a line (each checking capacity and uniqueness, each a call
        // to memmove) were half of the encoding's time.
        let deviceSlot = Int(deviceSlots[deviceIndex]), regionSlot = Int(region), kindSlot = kind.ordinal
        let between = RegionEvent.Kind.allCases.count
        let maximum = devicePieces.length(deviceSlot) + regionPieces.length(regionSlot) + fixedPieces.length(kindSlot)
            + lastInstant.count + fixedPieces.length(between) + 2 * ShortestDecimal.maximumLength + 2
        let ndjson = format == .ndjson
        out.append(addingCapacity: maximum) { span in
            span.withUnsafeMutableBufferPointer { buffer, written in
                var end = buffer.baseAddress!
                end = devicePieces.copy(deviceSlot, to: end)
                end = regionPieces.copy(regionSlot, to: end)
                end = fixedPieces.copy(kindSlot, to: end)
                end = lastInstant.withUnsafeBufferPointer { Pieces.copy($0, to: end) }
                end += ShortestDecimal.write(lat, to: end)
                end = fixedPieces.copy(between, to: end)
                end += ShortestDecimal.write(lon, to: end)
                if ndjson {
                    end.pointee = 0x7D
                    end += 1
                }
                end.pointee = 0x0A
                written = end + 1 - buffer.baseAddress!
            }
        }
    }

    /// A JSON string literal (RFC 8259 §7) or a CSV field (RFC 4180, quoted when needed).
    static func field(_ text: String, _ format: Format) -> [UInt8] {
        switch format {
        case .ndjson:
            var out: [UInt8] = [0x22]
            for byte in text.utf8 {
                switch byte {
                case 0x22: out += #"\""#.utf8
                case 0x5C: out += #"\\"#.utf8
                case 0x0A: out += #"\n"#.utf8
                case 0x0D: out += #"\r"#.utf8
                case 0x09: out += #"\t"#.utf8
                case 0..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    out += #"\u00"#.utf8
                    out.append(hex[Int(byte >> 4)])
                    out.append(hex[Int(byte & 15)])
                default: out.append(byte)
                }
            }
            out.append(0x22)
            return out
        case .csv:
            let bytes = Array(text.utf8)
            guard bytes.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else { return bytes }
            var out: [UInt8] = [0x22]
            for byte in bytes {
                out.append(byte)
                if byte == 0x22 { out.append(0x22) }
            }
            out.append(0x22)
            return out
        }
    }
}
