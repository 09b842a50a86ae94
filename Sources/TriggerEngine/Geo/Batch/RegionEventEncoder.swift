/// Writes events as the contract's NDJSON or CSV lines, into a byte buffer:
/// `{"device":"…","region":"…","event":"enter","time":"…Z","lat":…,"lon":…}`.
/// Identifiers are escaped once each, not once per event.
package struct RegionEventEncoder {
    package typealias Format = GeofenceRun.OutputFormat

    package let format: Format
    private let regionFields: [[UInt8]]
    private var deviceFields: [[UInt8]?] = []
    /// The last instant formatted, and its text.
    private var lastTime = Double.nan
    private var lastInstant: [UInt8] = []

    package init(format: Format, regions: [MonitoredRegion]) {
        self.format = format
        regionFields = regions.map { Self.field($0.identifier, format) }
    }

    /// The CSV header line, or nothing for NDJSON.
    package var header: [UInt8] {
        format == .csv ? Array("device,region,event,time,lat,lon\n".utf8) : []
    }

    /// Appends one event line to `out`.
    package mutating func append(device: Int32, name: @autoclosure () -> String, region: Int32, kind: RegionEvent.Kind,
                                 time: Double, lat: Double, lon: Double, to out: inout [UInt8]) {
        let deviceIndex = Int(device)
        if deviceIndex >= deviceFields.count {
            deviceFields.append(contentsOf: repeatElement(nil, count: deviceIndex + 1 - deviceFields.count))
        }
        if deviceFields[deviceIndex] == nil { deviceFields[deviceIndex] = Self.field(name(), format) }
        if time != lastTime {
            // Logs come in time order, many fixes at one instant: format each instant once.
            let micros = (time * 1_000_000).rounded()
            let (seconds, fraction) = CivilDate.floorDivide(Int(micros), 1_000_000)
            lastInstant = Array(RFC3339.string(epochSeconds: seconds, microseconds: fraction).utf8)
            lastTime = time
        }
        switch format {
        case .ndjson:
            out += #"{"device":"#.utf8
            out += deviceFields[deviceIndex]!
            out += #","region":"#.utf8
            out += regionFields[Int(region)]
            out += #","event":""#.utf8
            out += kind.rawValue.utf8
            out += #"","time":""#.utf8
            out += lastInstant
            out += #"","lat":"#.utf8
            out += lat.description.utf8
            out += #","lon":"#.utf8
            out += lon.description.utf8
            out += "}\n".utf8
        case .csv:
            out += deviceFields[deviceIndex]!
            out.append(0x2C)
            out += regionFields[Int(region)]
            out.append(0x2C)
            out += kind.rawValue.utf8
            out.append(0x2C)
            out += lastInstant
            out.append(0x2C)
            out += lat.description.utf8
            out.append(0x2C)
            out += lon.description.utf8
            out.append(0x0A)
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
