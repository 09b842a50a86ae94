import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// The byte reader of region files (`GeoJSONFeatureCollection(parsing:)`) against
/// the general path through `JSONDecoder`: equal regions wherever it reads,
/// and wherever it declines, the general path's answer unchanged.
@Suite("GeoJSON byte reader: the general path's answers, on fixtures, generated and mutated files")
struct GeoJSONReaderTests {
    /// The front door (byte reader, else general path) and the general path alone, as comparable text.
    static func bothPaths(_ data: Data, repair: Bool = false) -> (front: String, general: String) {
        let front = Result { () throws(DataError) in try MonitoredRegion.reading(featureCollection: data, repair: repair) }
        let general = Result { () throws(DataError) in try MonitoredRegion.generalFeatureCollection(data, repair: repair) }
        return (String(describing: front), String(describing: general))
    }

    @Test func everyFixtureReadsToTheGeneralPathsRegions() throws {
        let folder = RegionMonitorDifferentialTests.fixture("paris.geojson").deletingLastPathComponent()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        var paths = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".geojson") }
            .map { folder.appendingPathComponent($0).path }
        paths.append(root.appendingPathComponent("Examples/geo/regions.geojson").path)
        #expect(paths.count == 4)
        for path in paths {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let typed = try #require(GeoJSONFeatureCollection(parsing: data), "declined \(path)")
            for repair in [false, true] {
                let general = Result { () throws(DataError) in try MonitoredRegion.generalFeatureCollection(data, repair: repair) }
                let fast = Result { () throws(DataError) in try MonitoredRegion.regions(of: typed, repair: repair) }
                #expect(String(describing: fast) == String(describing: general), "\(path) repair \(repair)")
                if case .success(let regions) = fast { #expect(regions.count == typed.features.count) }
            }
        }
    }

    /// A seeded FeatureCollection in the many ways JSON can spell the same thing:
    /// numbers with 1 to 20 digits, exponents, integers, spaces and newlines
    /// anywhere, members in any order, altitudes, unknown members holding nested
    /// values, escaped and non-ASCII identifiers, null properties and flags.
    static func generatedCollection(_ random: inout SplitMix64, features featureCount: Int) -> String {
        func space() -> String { ["", "", " ", "\n  ", "\t", "\r\n"][Int(random.next() % 6)] }
        func number(_ value: Double) -> String {
            switch random.next() % 6 {
            case 0: return "\(value)"
            case 1: return String(format: "%.\(Int(random.next() % 18))f", value)
            case 2: return String(format: "%.\(Int(random.next() % 17))e", value)
            case 3: return String(format: "%.\(Int(random.next() % 17))E", value).replacingOccurrences(of: "E+", with: "E")
            case 4: return String(format: "%.20g", value)
            default: return value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
            }
        }
        func position(_ x: Double, _ y: Double) -> String {
            var members = [number(x), number(y)]
            if random.next() % 8 == 0 { members.append(number(Double(random.next() % 900) - 100.5)) }
            return "[" + space() + members.joined(separator: space() + "," + space()) + space() + "]"
        }
        func ring(_ cx: Double, _ cy: Double, _ radius: Double, reversed: Bool) -> String {
            let count = 4 + Int(random.next() % 40)
            var points = (0..<count).map { index -> String in
                let angle = (Double(index) + random.nextDouble(in: 0.1...0.9)) * 2 * .pi / Double(count)
                let r = radius * random.nextDouble(in: 0.5...1)
                return position(cx + r * cos(angle), cy + r * sin(angle))
            }
            if reversed { points.reverse() }
            points.append(points[0])
            return "[" + points.joined(separator: "," + space()) + "]"
        }
        func polygon(_ cx: Double, _ cy: Double, _ radius: Double) -> String {
            var rings = [ring(cx, cy, radius, reversed: false)]
            if random.next() % 3 == 0 { rings.append(ring(cx, cy, radius * 0.2, reversed: true)) }
            return "[" + rings.joined(separator: ",") + "]"
        }
        func identifier(_ index: Int) -> String {
            switch random.next() % 6 {
            case 0: return "\(index)"
            case 1: return "\(Double(index) + 0.5)"
            case 2: return #""zone \#(index)""#
            case 3: return #""z\u00f4ne-\#(index) \"q\" \\ \/""#
            case 4: return #""Zürich-\#(index)""#
            default: return #""\ud83d\ude00-\#(index)""#
            }
        }
        var features: [String] = []
        for index in 0..<featureCount {
            let cx = random.nextDouble(in: -170...170), cy = random.nextDouble(in: -80...80)
            let radius = random.nextDouble(in: 0.001...2)
            var geometry: [String]
            var properties: [String] = []
            switch random.next() % 4 {
            case 0:
                geometry = [#""type":"Point""#, #""coordinates":"# + position(cx, cy)]
                properties.append(#""radius":"# + number(random.nextDouble(in: 1...5000)))
            case 1:
                let parts = (0..<(1 + Int(random.next() % 3))).map { part in polygon(cx + Double(part) * 4 * radius, cy, radius) }
                geometry = [#""type":"MultiPolygon""#, #""coordinates":["# + parts.joined(separator: ",") + "]"]
            default:
                geometry = [#""type":"Polygon""#, #""coordinates":"# + polygon(cx, cy, radius)]
            }
            if random.next() % 4 == 0 { geometry.append(#""bbox":[1,2,3,4]"#) }
            if random.next() % 2 == 0 { geometry.reverse() }
            for flag in ["notifyOnEntry", "notifyOnExit", "repeats"] where random.next() % 3 == 0 {
                properties.append(#""\#(flag)":"# + ["true", "false", "null"][Int(random.next() % 3)])
            }
            if random.next() % 3 == 0 { properties.append(#""extra":{"list":[1,-2.5e-3,true,null,"x\n"],"o":{}}"#) }
            if random.next() % 4 == 0 { properties.append(#""name":"# + identifier(index)) }
            var members = [#""type":"Feature""#, #""geometry":{"# + geometry.joined(separator: "," + space()) + "}"]
            switch random.next() % 4 {
            case 0: members.append(#""id":"# + identifier(index))
            case 1: properties.append(#""id":"# + identifier(index))
            default: break
            }
            if properties.isEmpty && random.next() % 2 == 0 {
                if random.next() % 2 == 0 { members.append(#""properties":null"#) }
            } else {
                members.append(#""properties":{"# + properties.joined(separator: ",") + "}")
            }
            members.shuffle(using: &random)
            features.append("{" + space() + members.joined(separator: "," + space()) + space() + "}")
        }
        return space() + #"{"features":["# + features.joined(separator: "," + space()) + #"],"type":"FeatureCollection","crs":null}"# + space()
    }

    @Test func generatedCollectionsReadToTheGeneralPathsRegions() throws {
        var random = SplitMix64(seed: 20_261_123)
        var read = 0
        for round in 0..<60 {
            let data = Data(Self.generatedCollection(&random, features: 1 + round % 25).utf8)
            let typed = GeoJSONFeatureCollection(parsing: data)
            #expect(typed != nil, "declined round \(round)")
            if typed != nil { read += 1 }
            let (front, general) = Self.bothPaths(data, repair: round % 2 == 0)
            #expect(front == general, "round \(round)")
        }
        #expect(read == 60)
    }

    /// Mutated files: bytes changed, inserted, deleted, cut short. Whatever the
    /// byte reader makes of them, the answer must be the general path's.
    @Test func mutatedFilesGetTheGeneralPathsAnswer() throws {
        var random = SplitMix64(seed: 77)
        let alphabet = Array(#"{}[]",:.-+eE0123456789 \ntruefalsnul"\u00"#.utf8) + [0x00, 0xC3, 0xA9, 0xFF, 0x80]
        var declined = 0, accepted = 0
        for _ in 0..<2_000 {
            var bytes = Array(Self.generatedCollection(&random, features: 1 + Int(random.next() % 3)).utf8)
            for _ in 0..<(1 + Int(random.next() % 3)) {
                let at = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 4 {
                case 0: bytes[at] = alphabet[Int(random.next() % UInt64(alphabet.count))]
                case 1: bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: at)
                case 2: bytes.remove(at: at)
                default: bytes.removeLast(bytes.count - at)
                }
                if bytes.isEmpty { bytes = [0x7B] }
            }
            let data = Data(bytes)
            if GeoJSONFeatureCollection(parsing: data) == nil { declined += 1 } else { accepted += 1 }
            let (front, general) = Self.bothPaths(data)
            #expect(front == general, "\(String(decoding: bytes, as: UTF8.self))")
        }
        // Both sides of the reader were exercised.
        #expect(declined > 200 && accepted > 200, "declined \(declined), accepted \(accepted)")
    }

    @Test func declinedShapesFallBackWithTheGeneralPathsMessage() throws {
        let polygon = #""geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}"#
        let cases = [
            "",
            "\u{FEFF}" + #"{"type":"FeatureCollection","features":[]}"#,
            #"{"type":"FeatureCollection","features":[]} x"#,
            #"{"type":"FeatureCollection","type":"FeatureCollection","features":[]}"#,
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"radius":1,"radius":2},"geometry":{"type":"Point","coordinates":[0,0]}}]}"#,
            #"{"type":"FeatureCollection","features":[{"type":"Feature",\#(polygon),"properties":{"a":"\q"}}]}"#,
            #"{"typ\u0065":"FeatureCollection","features":[]}"#,
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[01,0],[1,0],[1,1],[01,0]]]}}]}"#,
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}]}"#,
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Polygon","coordinates":[]}}]}"#,
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":null}]}"#,
            #"{"type":"FeatureCollection","features":[{"type":"Feature",\#(polygon),"properties":{"x":\#(String(repeating: "[", count: 70))\#(String(repeating: "]", count: 70))}}]}"#,
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":123456789012345678901234,\#(polygon)}]}"#,
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1e999,0]},"properties":{"radius":5}}]}"#,
        ]
        for text in cases {
            let data = Data(text.utf8)
            #expect(GeoJSONFeatureCollection(parsing: data) == nil, "\(text)")
            let (front, general) = Self.bothPaths(data)
            #expect(front == general, "\(text)")
        }
        // -0 is -0.0 written either way, as JSONDecoder reads it.
        let signed = try #require(GeoJSONFeatureCollection(parsing: Data(#"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"radius":1},"geometry":{"type":"Point","coordinates":[-0,-0.0]}}]}"#.utf8)))
        guard case .point(let center) = signed.features[0].geometry else { Issue.record("not a point"); return }
        #expect(center.x.sign == .minus && center.y.sign == .minus)
    }

    @Test func decimalDigitsRoundExactlyAsStrtodDoes() {
        var random = SplitMix64(seed: 3)
        func check(_ mantissa: UInt64, _ scale: Int) {
            guard let value = DecimalParsing.nearestDouble(mantissa: mantissa, scale: scale) else { return }
            let text = scale >= 0 ? "\(mantissa)e-\(scale)" : "\(mantissa)e\(-scale)"
            #expect(value == Double(text), "\(text)")
        }
        for _ in 0..<200_000 {
            // 1 to 19 digits over every scale the fast paths take.
            let digits = 1 + Int(random.next() % 19)
            var mantissa: UInt64 = 0
            for _ in 0..<digits { mantissa = mantissa * 10 + random.next() % 10 }
            check(mantissa, Int(random.next() % 20))
            check(mantissa, -Int(random.next() % 23))
        }
        for _ in 0..<100_000 {
            // Exact halfway points between neighbouring doubles: (2j + 1) · 2^-k · 10^k = (2j + 1) · 5^k
            // for a 54-bit odd 2j + 1, k = 0, 1, 2; ties go to the even neighbour.
            let odd = (1 << 53) | random.next() % (1 << 53) | 1
            for k in 0...2 {
                var five: UInt64 = 1
                for _ in 0..<k { five *= 5 }
                let (product, overflow) = odd.multipliedReportingOverflow(by: five)
                if !overflow { check(product, k) }
                check(product >> 1, k)
            }
            // Just above and below the halfway points.
            check(odd &+ 1, 0)
            check(odd &- 1, 0)
        }
        #expect(DecimalParsing.nearestDouble(mantissa: 23_512_345_678_901_234, scale: 16) == 2.3512345678901234)
        #expect(DecimalParsing.nearestDouble(mantissa: 9_007_199_254_740_993, scale: 0) == 9_007_199_254_740_992)
        #expect(DecimalParsing.nearestDouble(mantissa: 1, scale: 23) == nil)
    }
}
