import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// `RegionEventEncoder`'s lines read back by independent readers (Foundation's
/// JSON parser, a plain RFC 4180 splitter) on seeded events with awkward
/// identifiers (quotes, backslashes, commas, line breaks, control characters,
/// non-ASCII, long ones) and coordinates of every kind `description` writes.
@Suite("RegionEventEncoder: every line reads back as the event it encodes")
struct RegionEventEncoderTests {
    private struct Event {
        var device: Int32, region: Int32, kind: RegionEvent.Kind, time: Double, lat: Double, lon: Double
    }

    private static let alphabet: [String] = ["a", "Z", "7", "-", "_", " ", ",", "\"", "\\", "\n", "\r", "\t", "\u{1}", "\u{1f}",
                                             "é", "東", "🚀", "/", "{", "}"]

    private static func name(_ random: inout SplitMix64) -> String {
        // Mostly short; one in eight up to 300 characters (a line longer than any buffer guess).
        let length = random.next() % 8 == 0 ? Int(random.next() % 300) : Int(random.next() % 12)
        return (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }.joined()
    }

    private static func coordinate(_ random: inout SplitMix64) -> Double {
        switch random.next() % 6 {
        case 0: return random.nextDouble(in: -180...180)  // 16 or 17 digits: `description`'s own path
        case 1: return [0, -0.0, 1e-5, -2.5e-7, 1e16, .leastNonzeroMagnitude, 180, -90][Int(random.next() % 8)]
        default:
            // What logs hold: up to 9 fraction digits.
            let digits = Int(random.next() % 10)
            let scale = pow(10, Double(digits))
            return (random.nextDouble(in: -180...180) * scale).rounded() / scale
        }
    }

    private static func events(_ random: inout SplitMix64, devices: Int, regions: Int, count: Int) -> [Event] {
        var time = 1_700_000_000.0
        return (0..<count).map { _ in
            // Logs in time order, many events at one instant, some with microseconds.
            if random.next() % 4 == 0 { time += Double(random.next() % 100_000) / 1_000 }
            return Event(device: Int32(random.next() % UInt64(devices)), region: Int32(random.next() % UInt64(regions)),
                         kind: RegionEvent.Kind.allCases[Int(random.next() % UInt64(RegionEvent.Kind.allCases.count))],
                         time: time, lat: coordinate(&random), lon: coordinate(&random))
        }
    }

    private static func regions(_ names: [String]) throws -> [MonitoredRegion] {
        try names.map { try MonitoredRegion(identifier: $0, region: Region.circle(center: Coordinate(latitude: 0, longitude: 0), radius: 10)) }
    }

    private static func expectedTime(_ time: Double) -> String {
        let micros = Int((time * 1_000_000).rounded())
        return RFC3339.string(epochSeconds: micros / 1_000_000, microseconds: micros % 1_000_000)
    }

    /// Seeded device and region names (numbered, so distinct), events, and an encoder for the regions.
    private static func sample(seed: UInt64, format: RegionEventEncoder.Format, count: Int) throws
        -> (devices: [String], regions: [String], events: [Event], encoder: RegionEventEncoder) {
        var random = SplitMix64(seed: 500 + seed)
        let devices = (0..<40).map { "\($0)" + name(&random) }
        let regions = (0..<25).map { "\($0)" + name(&random) }
        let events = events(&random, devices: devices.count, regions: regions.count, count: count)
        return (devices, regions, events, RegionEventEncoder(format: format, regions: try Self.regions(regions)))
    }

    @Test(arguments: [1, 2, 3])
    func ndjsonLinesParseBackToTheirEvents(seed: UInt64) throws {
        var (deviceNames, regionNames, events, encoder) = try Self.sample(seed: seed, format: .ndjson, count: 3_000)
        var out: [UInt8] = encoder.header
        for event in events {
            encoder.append(device: event.device, name: deviceNames[Int(event.device)], region: event.region, kind: event.kind,
                           time: event.time, lat: event.lat, lon: event.lon, to: &out)
        }
        let lines = out.split(separator: 0x0A, omittingEmptySubsequences: false)
        #expect(lines.count == events.count + 1 && lines.last?.isEmpty == true)
        for (line, event) in zip(lines, events) {
            let object = try #require(JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
            #expect(object["device"] as? String == deviceNames[Int(event.device)])
            #expect(object["region"] as? String == regionNames[Int(event.region)])
            #expect(object["event"] as? String == event.kind.rawValue)
            #expect(object["time"] as? String == Self.expectedTime(event.time))
            // The numbers as the contract writes them: Swift's shortest text.
            let text = String(decoding: line, as: UTF8.self)
            #expect(text.hasSuffix(#","lat":\#(event.lat.description),"lon":\#(event.lon.description)}"#), "\(text)")
            #expect(Set(object.keys) == ["device", "region", "event", "time", "lat", "lon"])
        }
    }

    /// RFC 4180 fields of one record (quoted fields may hold commas, quotes and line breaks).
    private static func records(_ text: String) -> [[String]] {
        var records: [[String]] = [], fields: [String] = [], field = "", quoted = false
        var characters = Array(text.unicodeScalars)[...]
        while let character = characters.popFirst() {
            if quoted {
                if character == "\"" {
                    if characters.first == "\"" { field.unicodeScalars.append(characters.removeFirst()) } else { quoted = false }
                } else {
                    field.unicodeScalars.append(character)
                }
            } else if character == "\"" {
                quoted = true
            } else if character == "," {
                fields.append(field)
                field = ""
            } else if character == "\n" {
                fields.append(field)
                records.append(fields)
                fields = []
                field = ""
            } else {
                field.unicodeScalars.append(character)
            }
        }
        return records
    }

    @Test(arguments: [4, 5])
    func csvRecordsSplitBackToTheirEvents(seed: UInt64) throws {
        var (deviceNames, regionNames, events, encoder) = try Self.sample(seed: seed, format: .csv, count: 2_000)
        var out: [UInt8] = encoder.header
        // Half the events through a copy of the encoder into a buffer of its own,
        // as a run's last batch is encoded: the copy makes its own device pieces.
        let half = events.count / 2
        var copy = encoder
        var later: [UInt8] = []
        for (index, event) in events.enumerated() {
            if index < half {
                encoder.append(device: event.device, name: deviceNames[Int(event.device)], region: event.region, kind: event.kind,
                               time: event.time, lat: event.lat, lon: event.lon, to: &out)
            } else {
                copy.append(device: event.device, name: deviceNames[Int(event.device)], region: event.region, kind: event.kind,
                            time: event.time, lat: event.lat, lon: event.lon, to: &later)
            }
        }
        let records = Self.records(String(decoding: out + later, as: UTF8.self))
        #expect(records.first == ["device", "region", "event", "time", "lat", "lon"])
        #expect(records.count == events.count + 1)
        for (record, event) in zip(records.dropFirst(), events) {
            #expect(record == [deviceNames[Int(event.device)], regionNames[Int(event.region)], event.kind.rawValue,
                               Self.expectedTime(event.time), event.lat.description, event.lon.description])
        }
    }
}
