/// Writes events as the contract's NDJSON or CSV lines, into a byte buffer:
/// `{"device":"…","region":"…","event":"enter","time":"…Z","lat":…,"lon":…}`.
/// Identifiers are escaped once each, not once per event.
package struct RegionEventEncoder {
    package typealias Format = GeofenceRun.OutputFormat

    package let format: Format
    // Each line is a few copies of pieces made once, the constant text fused to
    // the identifiers around it: a `String` append per piece was a tenth of a run.
    /// Per region: its field and what follows it up to the event name
    /// (`"zone-1","event":"` or `zone-1,`).
    private let regionPieces: [[UInt8]]
    /// Per kind (`RegionEvent.Kind.allCases` order): its name and what follows up to the time.
    private let kindPieces: [[UInt8]]
    /// Per device: what comes before and after its field up to the region's
    /// (`{"device":"d0","region":` or `d0,`), made on its first event.
    private var devicePieces: [[UInt8]?] = []
    /// The last instant formatted, and its text with what follows up to the latitude.
    private var lastTime = Double.nan
    private var lastInstant: [UInt8] = []
    private let lonKey = Array(#","lon":"#.utf8)

    package init(format: Format, regions: [MonitoredRegion]) {
        self.format = format
        regionPieces = regions.map { Self.field($0.identifier, format) + Array((format == .ndjson ? #","event":""# : ",").utf8) }
        kindPieces = RegionEvent.Kind.allCases.map { Array(($0.rawValue + (format == .ndjson ? #"","time":""# : ",")).utf8) }
    }

    /// The CSV header line, or nothing for NDJSON.
    package var header: [UInt8] {
        format == .csv ? Array("device,region,event,time,lat,lon\n".utf8) : []
    }

    /// Appends one event line to `out`.
    package mutating func append(device: Int32, name: @autoclosure () -> String, region: Int32, kind: RegionEvent.Kind,
                                 time: Double, lat: Double, lon: Double, to out: inout [UInt8]) {
        let deviceIndex = Int(device)
        if deviceIndex >= devicePieces.count {
            devicePieces.append(contentsOf: repeatElement(nil, count: deviceIndex + 1 - devicePieces.count))
        }
        if devicePieces[deviceIndex] == nil {
            let field = Self.field(name(), format)
            devicePieces[deviceIndex] = format == .ndjson ? Array(#"{"device":"#.utf8) + field + Array(#","region":"#.utf8)
                                                          : field + [0x2C]
        }
        if time != lastTime {
            // Logs come in time order, many fixes at one instant: format each instant once.
            let micros = (time * 1_000_000).rounded()
            let (seconds, fraction) = CivilDate.floorDivide(Int(micros), 1_000_000)
            lastInstant = Array((RFC3339.string(epochSeconds: seconds, microseconds: fraction)
                                 + (format == .ndjson ? #"","lat":"# : ",")).utf8)
            lastTime = time
        }
        out += devicePieces[deviceIndex]!
        out += regionPieces[Int(region)]
        out += kindPieces[kind.ordinal]
        out += lastInstant
        ShortestDecimal.append(lat, to: &out)
        if format == .ndjson {
            out += lonKey
            ShortestDecimal.append(lon, to: &out)
            out.append(0x7D)
        } else {
            out.append(0x2C)
            ShortestDecimal.append(lon, to: &out)
        }
        out.append(0x0A)
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
