import Foundation
import Testing
@_spi(Internals) @testable import TriggerEngine

@Suite("Regions from GeoJSON and WKT: validation, repair, antimeridian, circles")
struct RegionLoadingTests {
    static func collection(_ features: String...) -> Data {
        Data(#"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#.utf8)
    }

    static let bowTie = #"{"type":"Feature","properties":{"name":"bow"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[2,2],[2,0],[0,2],[0,0]]]}}"#

    @Test func bowTieFeatureIsRefusedNamingTheFeatureAndRepairedOnRequest() throws {
        let error = expectInputDataError { try MonitoredRegion.featureCollection(Self.collection(Self.bowTie)) }
        #expect(error?.message.hasPrefix("feature 'bow': invalid polygon: Self-intersection") == true, "\(String(describing: error))")
        #expect(error?.message.contains("--repair") == true)
        let repaired = try MonitoredRegion.featureCollection(Self.collection(Self.bowTie), repair: true)
        // MakeValid turns the bow tie into its two triangles, which meet at (1, 1).
        #expect(repaired[0].region.polygonCount == 2)
        let monitor = try RegionMonitor(regions: repaired, options: MonitorOptions(initial: .enter))
        let inside = monitor.ingest(LocationFix(device: "d", time: Date(timeIntervalSince1970: 0),
                                                coordinate: Coordinate(latitude: 1, longitude: 0.2)))
        #expect(inside.map(\.kind) == [.enter])
    }

    @Test func byteReaderGivesTheRegionsOfTheGeneralPathOrDefersToIt() throws {
        // The real city files (San Francisco needs --repair), and features in every form the byte reader
        // takes: numeric and string ids, properties.id and name fallbacks, index identifiers, null properties,
        // altitudes, flags, circles, MultiPolygons with holes.
        var files: [(Data, Bool)] = try ["paris", "manhattan"].map { (try Data(contentsOf: RegionMonitorDifferentialTests.fixture("\($0).geojson")), false) }
        files.append((try Data(contentsOf: RegionMonitorDifferentialTests.fixture("san-francisco.geojson")), true))
        files.append((Self.collection(
            #"{"type":"Feature","id":7,"properties":null,"geometry":{"type":"Polygon","coordinates":[[[0,0,12.5],[1,0,3],[1,1,0],[0,1,1],[0,0,12.5]]]}}"#,
            #"{"type":"Feature","id":2.5,"properties":{"notifyOnEntry":false,"repeats":false},"geometry":{"type":"Point","coordinates":[10,20]}}"#
                .replacingOccurrences(of: #""repeats":false}"#, with: #""repeats":false,"radius":150}"#),
            #"{"type":"Feature","properties":{"id":"by-property","name":"ignored","notifyOnExit":false},"geometry":{"type":"MultiPolygon","coordinates":[[[[5,5],[9,5],[9,9],[5,9],[5,5]],[[6,6],[6,7],[7,7],[7,6],[6,6]]],[[[20,20],[21,20],[21,21],[20,20]]]]}}"#,
            #"{"type":"Feature","properties":{"name":"by-name","extra":{"nested":[1,true,null]}},"geometry":{"type":"Point","coordinates":[-179.99,0],"bbox":[1]},"bbox":[0]}"#
                .replacingOccurrences(of: #""extra""#, with: #""radius":2000,"extra""#),
            #"{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[30,30],[31,30],[31,31],[30,31],[30,30]]]}}"#
        ), false))
        for (data, repair) in files {
            let typed = try #require(GeoJSONFeatureCollection(parsing: data), "the byte reader declined")
            let fast = try MonitoredRegion.featureCollection(data, repair: repair)
            #expect(fast.count == typed.features.count)
            #expect(fast == (try MonitoredRegion.generalFeatureCollection(data, repair: repair)))
        }
        let crafted = try MonitoredRegion.featureCollection(files[3].0)
        #expect(crafted.map(\.identifier) == ["7", "2.5", "by-property", "by-name", "4"])
        #expect(crafted.map(\.notifyOnEntry) == [true, false, true, true, true])
        #expect(crafted.map(\.notifyOnExit) == [true, true, false, true, true])
        #expect(crafted.map(\.repeats) == [true, false, true, true, true])

        // What the byte reader declines goes the general way: same answers, same messages.
        for declined in [#"{"type":"Feature","properties":{"repeats":"no"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}"#,
                         #"{"type":"Feature","properties":{"radius":"10"},"geometry":{"type":"Point","coordinates":[0,0]}}"#] {
            let data = Self.collection(declined)
            #expect(GeoJSONFeatureCollection(parsing: data) == nil)
            let viaFront = Result { try MonitoredRegion.featureCollection(data) }
            let viaGeneral = Result { try MonitoredRegion.generalFeatureCollection(data, repair: false) }
            #expect(String(describing: viaFront) == String(describing: viaGeneral))
        }
        #expect(try MonitoredRegion.featureCollection(Self.collection(
            #"{"type":"Feature","id":true,"properties":{"name":"flagged"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}"#))[0].identifier == "flagged")
    }

    @Test func unclosedRingTooFewPositionsAndWrongTypesAreRefused() throws {
        let unclosed = #"{"type":"Feature","id":"open","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}}"#
        let error = expectInputDataError { try MonitoredRegion.featureCollection(Self.collection(unclosed)) }
        #expect(error?.message == "feature 'open': ring 1 of polygon 1 is not closed: its last position must repeat the first (RFC 7946 §3.1.6)")
        #expect(try MonitoredRegion.featureCollection(Self.collection(unclosed), repair: true)[0].region.polygonCount == 1)

        let short = #"{"type":"Feature","id":"short","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[0,0]]]}}"#
        let shortError = expectInputDataError { try MonitoredRegion.featureCollection(Self.collection(short), repair: true) }
        #expect(shortError?.message.contains("has 3 positions; a closed ring needs at least 4") == true)

        let line = #"{"type":"Feature","id":"road","geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}"#
        let lineError = expectInputDataError { try MonitoredRegion.featureCollection(Self.collection(line)) }
        #expect(lineError?.message.hasPrefix("feature 'road': geometry type LineString is not a region") == true)

        let point = #"{"type":"Feature","id":"pin","geometry":{"type":"Point","coordinates":[0,0]}}"#
        let pointError = expectInputDataError { try MonitoredRegion.featureCollection(Self.collection(point)) }
        #expect(pointError?.message.contains("needs a numeric properties.radius") == true)

        let twice = #"{"type":"Feature","id":"a","properties":{"radius":5},"geometry":{"type":"Point","coordinates":[0,0]}}"#
        let twiceError = expectInputDataError { try MonitoredRegion.featureCollection(Self.collection(twice, twice)) }
        #expect(twiceError?.message.contains("already used") == true)
    }

    @Test func sanFranciscoMarinaIsInvalidUntilRepaired() throws {
        let path = RegionMonitorDifferentialTests.fixture("san-francisco.geojson").path
        let error = expectInputDataError { try MonitoredRegion.load(featureCollectionAt: path) }
        #expect(error?.location?.file == path)
        #expect(error?.message.hasPrefix("feature 'Marina': invalid polygon: Ring Self-intersection") == true)
        #expect(try MonitoredRegion.load(featureCollectionAt: path, repair: true).count == 37)
    }

    @Test func identifiersComeFromIdThenPropertiesIdThenNameThenIndex() throws {
        let shape = #""geometry":{"type":"Point","coordinates":[10,20]}"#
        let regions = try MonitoredRegion.featureCollection(Self.collection(
            #"{"type":"Feature","id":7,"properties":{"id":"x","name":"y","radius":1},\#(shape)}"#,
            #"{"type":"Feature","properties":{"id":"pid","name":"y","radius":1,"notifyOnEntry":false},\#(shape)}"#,
            #"{"type":"Feature","properties":{"name":"named","radius":1,"repeats":false},\#(shape)}"#,
            #"{"type":"Feature","properties":{"radius":1,"notifyOnExit":false},\#(shape)}"#))
        #expect(regions.map(\.identifier) == ["7", "pid", "named", "3"])
        #expect(regions.map(\.notifyOnEntry) == [true, false, true, true])
        #expect(regions.map(\.repeats) == [true, true, false, true])
        #expect(regions.map(\.notifyOnExit) == [true, true, true, false])
        #expect(regions[0].region.circle?.center == Coordinate(latitude: 20, longitude: 10))
    }

    @Test func wktPolygonWithHoleExcludesTheHoleButKeepsItsBoundary() throws {
        let region = try Region(wkt: "POLYGON((0 0, 4 0, 4 4, 0 4, 0 0), (1 1, 2 1, 2 2, 1 2, 1 1))")
        let monitor = try RegionMonitor(regions: [MonitoredRegion(identifier: "square", region: region)],
                                        options: MonitorOptions(initial: .enter))
        func kinds(_ device: String, _ lat: Double, _ lon: Double) -> [RegionEvent.Kind] {
            monitor.ingest(LocationFix(device: device, time: Date(timeIntervalSince1970: 0),
                                       coordinate: Coordinate(latitude: lat, longitude: lon))).map(\.kind)
        }
        #expect(kinds("in", 3, 3) == [.enter])
        #expect(kinds("hole", 1.5, 1.5) == [])
        #expect(kinds("hole-edge", 1.5, 1) == [.enter])
        #expect(kinds("corner", 4, 4) == [.enter])
        #expect(kinds("out", 5, 5) == [])
        expectInputDataError { try Region(wkt: "POLYGON((0 0, 1 1") }
        expectInputDataError { try Region(wkt: "LINESTRING(0 0, 1 1)") }
    }

    @Test func polygonBeyond180IsSplitAndAgreesWithItsRFC7946Form() throws {
        // The same 20° × 10° box across the antimeridian, once with longitudes up
        // to 190 and once as RFC 7946 §3.1.9 asks, cut in two at ±180.
        let wide = try Region(geoJSON: #"{"type":"Polygon","coordinates":[[[170,-5],[190,-5],[190,5],[170,5],[170,-5]]]}"#)
        let split = try Region(geoJSON: #"{"type":"MultiPolygon","coordinates":[[[[170,-5],[180,-5],[180,5],[170,5],[170,-5]]],[[[-180,-5],[-170,-5],[-170,5],[-180,5],[-180,-5]]]]}"#)
        #expect(wide.polygonCount == 2)
        #expect(wide.rings.allSatisfy { $0.allSatisfy { abs($0.longitude) <= 180 } })
        let regions = [MonitoredRegion(identifier: "wide", region: wide), MonitoredRegion(identifier: "split", region: split)]
        let walks = RandomWalks(devices: 6, fixesPerDevice: 300, box: Envelope(minX: 165, minY: -8, maxX: 180, maxY: 8),
                                step: 20_000...120_000, noise: 500)
        for options in OptionMatrix.all {
            let monitor = try RegionMonitor(regions: regions, options: options)
            var byRegion: [String: [String]] = [:]
            for fix in walks.log(seed: 9) {
                for event in monitor.ingest(fix) {
                    byRegion[event.region, default: []].append("\(event.device) \(event.kind) \(event.time)")
                }
            }
            #expect(byRegion["wide"] == byRegion["split"], "\(options)")
            #expect((byRegion["wide"]?.count ?? 0) > 10, "the walks must cross the box: \(options)")
        }
        let monitor = try RegionMonitor(regions: [MonitoredRegion(identifier: "wide", region: wide)],
                                        options: MonitorOptions(initial: .enter))
        for (lon, inside) in [(-175.0, true), (175, true), (180, true), (-165, false), (165, false)] {
            let events = monitor.ingest(LocationFix(device: "at \(lon)", time: Date(timeIntervalSince1970: 0),
                                                    coordinate: Coordinate(latitude: 0, longitude: lon)))
            #expect(events.isEmpty != inside, "longitude \(lon)")
        }
    }

    @Test func circleBoundaryIsInsideAndTheRadiusIsGreatCircleMetres() throws {
        // 1° of latitude on the mean-radius sphere is 111,195.08 m.
        let circle = try Region.circle(center: Coordinate(latitude: 0, longitude: 0), radius: 111_195.1)
        let monitor = try RegionMonitor(regions: [MonitoredRegion(identifier: "c", region: circle)],
                                        options: MonitorOptions(initial: .enter))
        let at = monitor.ingest(LocationFix(device: "a", time: Date(timeIntervalSince1970: 0),
                                            coordinate: Coordinate(latitude: 1, longitude: 0)))
        let beyond = monitor.ingest(LocationFix(device: "b", time: Date(timeIntervalSince1970: 0),
                                                coordinate: Coordinate(latitude: 1.000_01, longitude: 0)))
        #expect(at.count == 1)
        #expect(beyond.isEmpty)
        #expect(throws: DataError.self) { try Region.circle(center: Coordinate(latitude: 91, longitude: 0), radius: 5) }
        #expect(throws: DataError.self) { try Region.circle(center: Coordinate(latitude: 0, longitude: 0), radius: -5) }
    }
}
