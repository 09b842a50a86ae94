import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

@Suite("GeofenceMap: what the SVG holds, read as XML")
struct GeofenceMapTests {
    static func parisRegions() throws -> [MonitoredRegion] {
        try MonitoredRegion.load(featureCollectionAt: MapRun.fixture("paris.geojson"))
    }

    /// The fixes of `log` the monitor uses (with these options), by device, in order.
    static func usedFixes(_ log: [LocationFix], _ regions: [MonitoredRegion], _ options: MonitorOptions) throws
        -> [String: [LocationFix]] {
        let monitor = try RegionMonitor(regions: regions, options: options)
        var used: [String: [LocationFix]] = [:]
        for fix in log {
            let before = monitor.counters.used
            _ = monitor.ingest(fix)
            if monitor.counters.used > before { used[fix.device, default: []].append(fix) }
        }
        return used
    }

    @Test func everyEventIsAMarkerAtItsFixWithKindRegionDeviceAndTime() throws {
        let regions = try Self.parisRegions()
        let options = MonitorOptions(initial: .enter, hysteresis: 20, dwell: 300, cross: true)
        let log = RandomWalks(devices: 12, fixesPerDevice: 250, box: .around(regions)).log(seed: 18)
        let run = try MapRun.run(regions: regions, fixes: try MapRun.csv(log), options: options)
        defer { run.discard() }
        let picture = try run.picture()
        let markers = picture.markers
        let events = run.events
        #expect(events.count > 100)
        #expect(markers.count == events.count)
        for (marker, event) in zip(markers, events) {
            #expect(marker.kind == event.kind)
            #expect(marker.title == "\(event.kind) \(event.region)\ndevice \(event.device)\n\(event.time)")
            let (x, y) = picture.pixel(latitude: event.latitude, longitude: event.longitude)
            // Pixels are written to a tenth; a diamond's centre is the mean of its corners.
            #expect(abs(marker.x - x) <= 0.06 && abs(marker.y - y) <= 0.06, "\(marker) vs \(x), \(y)")
        }
        #expect(run.report.eventMarkers == events.count && run.report.events == events.count)
    }

    @Test func tracksFollowEachDevicesUsedFixesInOrder() throws {
        let regions = try Self.parisRegions()
        let log = RandomWalks(devices: 6, fixesPerDevice: 700, box: .around(regions)).log(seed: 5)
        let run = try MapRun.run(regions: regions, fixes: try MapRun.csv(log))
        defer { run.discard() }
        let picture = try run.picture()
        let used = try Self.usedFixes(log, regions, MonitorOptions())
        let tracks = try #require(picture.svg.element(id: "tracks"))
        var drawn: [String: [(x: Double, y: Double)]] = [:]
        for path in tracks.children {
            let name = try #require(path.title)
            let points = path.subpaths.flatMap { $0 }
            // Each chunk starts where the device's previous one ended.
            if let last = drawn[name]?.last, let first = points.first {
                #expect(abs(last.x - first.x) < 1e-9 && abs(last.y - first.y) < 1e-9)
                drawn[name]! += points.dropFirst()
            } else {
                drawn[name, default: []] += points
            }
        }
        #expect(Set(drawn.keys) == Set(used.keys))
        for (device, fixes) in used {
            let expected = fixes.map { picture.pixel(latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude) }
            let points = drawn[device]!
            // The drawn points are the fixes in order, less those within half a pixel of the one before.
            var next = 0
            var previous: (x: Double, y: Double)?
            for point in points {
                guard let match = expected[next...].firstIndex(where: { abs($0.x - point.x) <= 0.06 && abs($0.y - point.y) <= 0.06 }) else {
                    Issue.record("\(device): drawn point \(point) is no later fix")
                    break
                }
                for skipped in expected[next..<match] {
                    // Left out only when within half a pixel of the point drawn before it.
                    let near = previous.map { abs(skipped.x - $0.x) < 0.56 && abs(skipped.y - $0.y) < 0.56 } ?? false
                    #expect(near, "\(device): fix at \(skipped) left out")
                }
                previous = point
                next = match + 1
            }
            #expect(next == expected.count, "\(device): the track ends at fix \(next) of \(expected.count)")
            #expect(points.count * 10 >= expected.count * 8, "\(device): \(points.count) of \(expected.count) drawn")
        }
    }

    @Test func regionsAreDrawnWithHolesTitlesAndCirclesTrueToTheGround() throws {
        let regions = try MonitoredRegion.load(featureCollectionAt: MapRun.root.appendingPathComponent("Examples/geo/regions.geojson").path)
        let run = try MapRun.run(regions: regions, fixes: MapRun.fixture("liverpool-bus-route14.csv"),
                                 columns: try LocationLogColumns(mapping: "device=vehicle_id,time=timestamp,lat=latitude,lon=longitude"))
        defer { run.discard() }
        let picture = try run.picture()
        let paths = try #require(picture.svg.element(id: "regions")).children.filter { $0.name == "path" }
        #expect(paths.map(\.title) == regions.map(\.identifier))
        for (path, region) in zip(paths, regions) {
            if let circle = region.region.circle {
                #expect(path["data-shape"] == "circle")
                let outline = try #require(path.subpaths.first)
                #expect(outline.count >= 32)
                for point in outline {
                    let (latitude, longitude) = picture.coordinate(x: point.x, y: point.y)
                    let distance = GeoMath.haversine(lat1: circle.center.latitude, lon1: circle.center.longitude,
                                                     lat2: latitude, lon2: longitude)
                    // Within the tenth of a pixel the numbers are written to.
                    let slack = 0.08 * WebMercator.groundMetresPerProjectedMetre(atLatitude: latitude) / picture.scale
                    #expect(abs(distance - circle.radius) <= slack, "\(region.identifier): \(distance) m")
                }
            } else {
                // north-box: a rectangle with a rectangular hole: two rings.
                #expect(path["data-shape"] == "polygon")
                #expect(path.subpaths.map(\.count) == [5, 5])
            }
        }
        let labels = try #require(picture.svg.element(id: "labels")).children.map(\.text)
        #expect(Set(labels) == Set(regions.map(\.identifier)))
        // Legend, time span, scale bar, north arrow.
        let span = try #require(picture.svg.element(id: "time-span")).elements(named: "text").map(\.text)
        #expect(span.contains("from 2026-01-26T15:55:12Z") && span.contains("to 2026-01-26T18:19:36Z"))
        #expect(picture.svg.element(id: "north-arrow") != nil && picture.svg.element(id: "legend") != nil)
        let bar = try #require(picture.svg.element(id: "scale-bar"))
        let metres = try #require(Double(bar["data-metres"] ?? "")), pixels = try #require(Double(bar["data-pixels"] ?? ""))
        let latitude = picture.coordinate(x: 0, y: picture.mapHeight / 2).latitude
        #expect(abs(metres / pixels - WebMercator.groundMetresPerProjectedMetre(atLatitude: latitude) / picture.scale) < 1e-9)
        #expect([1.0, 2, 5].contains(metres / pow(10, log10(metres).rounded(.down))))
    }

    @Test func frameIsFittedToTheRegionsAndEveryFix() throws {
        let regions = try Self.parisRegions()
        let log = RandomWalks(devices: 8, fixesPerDevice: 200, box: .around(regions)).log(seed: 9)
        let run = try MapRun.run(regions: regions, fixes: try MapRun.csv(log))
        defer { run.discard() }
        let picture = try run.picture()
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        let fixes = try Self.usedFixes(log, regions, MonitorOptions()).values.flatMap { $0 }.map(\.coordinate)
        let vertices = regions.flatMap { region -> [Coordinate] in
            guard case .polygons(let polygons) = region.region.shape else { return [] }
            return polygons.flatMap { $0.rings.flatMap { $0.map { Coordinate(latitude: $0.y, longitude: $0.x) } } }
        }
        for coordinate in fixes + vertices {
            let (x, y) = picture.pixel(latitude: coordinate.latitude, longitude: coordinate.longitude)
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        }
        let margin = MapStyle().margin
        #expect(minX >= margin - 0.01 && minY >= margin - 0.01)
        #expect(maxX <= picture.mapWidth - margin + 0.01 && maxY <= picture.mapHeight - margin + 0.01)
        #expect(maxX - minX >= 1000 - 2 * margin - 1 || maxY - minY >= 800 - 2 * margin - 1)
    }

    @Test func runAcrossTheAntimeridianLiesTogether() throws {
        let regions = try MonitoredRegion.load(featureCollectionAt: MapRun.root.appendingPathComponent("Examples/map/pacific.geojson").path)
        let run = try MapRun.run(regions: regions, fixes: MapRun.root.appendingPathComponent("Examples/map/pacific-crossing.csv").path,
                                 options: MonitorOptions(cross: true))
        defer { run.discard() }
        let picture = try run.picture()
        // The cut is in the empty Atlantic side, west of Suva's circle.
        #expect(picture.west > 177.9 && picture.west < 178.3, "\(picture.west)")
        let segments = picture.trackSegments
        #expect(segments.count > 400)
        for (ax, ay, bx, by) in segments {
            #expect(ax >= 0 && bx >= 0 && ax <= picture.mapWidth && bx <= picture.mapWidth && ay >= 0 && by <= picture.mapHeight)
            // A fix every 20 minutes at about 30 km/h: never a jump across the map.
            #expect(hypot(bx - ax, by - ay) < 40)
        }
        // The Lau box, written across 180, is stored split; its two parts meet on the map.
        let lau = try #require(picture.svg.element(id: "regions")?.children.first { $0.title == "lau-box" })
        let parts = lau.subpaths
        #expect(parts.count == 3)  // the part east of 180 with the hole, and the part west of it
        let x180 = picture.pixel(latitude: -18, longitude: 180).x
        let endingAt180 = parts.filter { abs($0.map(\.x).max()! - x180) < 0.11 }
        let startingAt180 = parts.filter { abs($0.map(\.x).min()! - x180) < 0.11 }
        #expect(endingAt180.count == 1 && startingAt180.count == 1)
        // Its outline leaves out the cut along 180°.
        let edge = try #require(picture.svg.elements(named: "path").first { $0.classes == ["edge"] })
        for subpath in edge.subpaths {
            for (a, b) in zip(subpath, subpath.dropFirst()) {
                #expect(!(abs(a.x - x180) < 0.11 && abs(b.x - x180) < 0.11), "an edge along 180°")
            }
        }
    }

    @Test func trackRoundTheWorldIsDrawnAgainPastTheCut() throws {
        // Once round the equator eastward from 5° E back to it, 10° a step: every
        // longitude is covered, so the map spans −180…180. The track's one line runs
        // off the right edge at 180°; its second half shows only in the copy 360° west.
        var fixes: [LocationFix] = []
        for step in 0...36 {
            fixes.append(LocationFix(device: "ship", time: Date(timeIntervalSince1970: Double(step) * 3600),
                                     coordinate: Coordinate(latitude: 0, longitude: GeoMath.wrappedDelta(5 + Double(step) * 10, from: 0))))
        }
        let run = try MapRun.run(regions: [], fixes: try MapRun.csv(fixes))
        defer { run.discard() }
        let picture = try run.picture()
        #expect(picture.west == -180)
        let left = picture.pixel(latitude: 0, longitude: -180).x, right = picture.pixel(latitude: 0, longitude: 180).x
        let paths = try #require(picture.svg.element(id: "tracks")).children
        let subpaths = paths.flatMap(\.subpaths)
        #expect(paths.count == 1 && subpaths.count == 2)
        // Every step of 10° is drawn from a point inside the world, as a segment of its length.
        let width = right - left
        for step in 0..<36 {
            let from = GeoMath.wrappedDelta(5 + Double(step) * 10, from: 0)
            let drawn = subpaths.contains { points in
                zip(points, points.dropFirst()).contains { p, q in
                    abs((q.x - p.x) - width / 36) < 0.2 && p.x >= left - 0.1 && p.x <= right
                        && abs((p.x - left) / width * 360 - 180 - from) < 0.05
                }
            }
            #expect(drawn, "the step from \(from)° E")
        }
    }

    @Test func regionsTooSmallToSeeGetADot() throws {
        // Paris and a circle in Sydney on one map: every region is a few pixels at most.
        let regions = try Self.parisRegions()
            + [MonitoredRegion(identifier: "opera-house", region: try .circle(center: Coordinate(latitude: -33.8568, longitude: 151.2153), radius: 150))]
        let fixes = [LocationFix(device: "p", time: Date(timeIntervalSince1970: 0), coordinate: Coordinate(latitude: 48.86, longitude: 2.35)),
                     LocationFix(device: "s", time: Date(timeIntervalSince1970: 60), coordinate: Coordinate(latitude: -33.86, longitude: 151.21))]
        let run = try MapRun.run(regions: regions, fixes: try MapRun.csv(fixes))
        defer { run.discard() }
        let picture = try run.picture()
        let children = try #require(picture.svg.element(id: "regions")).children
        let dots = children.filter { $0.classes == ["region", "dot"] }
        #expect(dots.map(\.title) == regions.map(\.identifier))
        for (dot, region) in zip(dots, regions) {
            let x = try #require(Double(dot["cx"] ?? "")), y = try #require(Double(dot["cy"] ?? ""))
            let expected: (x: Double, y: Double)
            switch region.region.shape {
            case .circle(let center, _):
                expected = picture.pixel(latitude: center.latitude, longitude: center.longitude)
            case .polygons(let polygons):
                let points = polygons.flatMap { $0.rings[0] }.map { picture.pixel(latitude: $0.y, longitude: $0.x) }
                expected = ((points.map(\.x).min()! + points.map(\.x).max()!) / 2, (points.map(\.y).min()! + points.map(\.y).max()!) / 2)
            }
            #expect(abs(x - expected.x) <= 0.06 && abs(y - expected.y) <= 0.06, "\(region.identifier)")
        }
    }

    @Test func fixesNearThePolesAreClampedLikeWebMaps() throws {
        var fixes: [LocationFix] = []
        for step in 0..<40 {
            let time = Date(timeIntervalSince1970: 1_790_000_000 + Double(step) * 600)
            fixes.append(LocationFix(device: "polar", time: time,
                                     coordinate: Coordinate(latitude: 80 + Double(step) * 0.25,
                                                             longitude: GeoMath.wrappedDelta(-40 + Double(step) * 9, from: 0))))
        }
        let regions = [MonitoredRegion(identifier: "pole", region: try .circle(center: Coordinate(latitude: 89, longitude: 0), radius: 300_000)),
                       MonitoredRegion(identifier: "station", region: try .circle(center: Coordinate(latitude: 82, longitude: -30), radius: 50_000))]
        let run = try MapRun.run(regions: regions, fixes: try MapRun.csv(fixes), options: MonitorOptions(initial: .enter))
        defer { run.discard() }
        let text = String(decoding: run.map, as: UTF8.self)
        #expect(!text.contains("nan") && !text.contains("inf"))
        let picture = try run.picture()
        let top = picture.pixel(latitude: 90, longitude: 0).y
        #expect(top.isFinite && top >= -1e-6, "the world's top edge at \(top)")
        for (_, ay, _, by) in picture.trackSegments { #expect(ay >= top - 0.06 && by >= top - 0.06) }
        // The circle round the pole spans every longitude and closes along the map's top edge.
        let pole = try #require(picture.svg.element(id: "regions")?.children.first { $0.title == "pole" })
        let ys = pole.subpaths.flatMap { $0 }.map(\.y)
        #expect(abs(ys.min()! - top) < 0.06)
        #expect(run.events.contains { $0.region == "pole" && $0.kind == "enter" })
    }

    @Test func samplingKeepsTheDevicesWithTheSmallestHashesAndSaysSo() throws {
        let regions = try Self.parisRegions()
        let log = RandomWalks(devices: 60, fixesPerDevice: 60, box: .around(regions)).log(seed: 60)
        let sampling = MapSampling(maxTrackDevices: 7, maxTrackFixes: 150, maxEvents: 9)
        let run = try MapRun.run(regions: regions, fixes: try MapRun.csv(log), sampling: sampling)
        defer { run.discard() }
        // The oracle: FNV-1a 64 written from its definition, over every device.
        func fnv(_ text: String) -> UInt64 {
            text.utf8.reduce(14_695_981_039_346_656_037 as UInt64) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
        }
        let devices = Set(log.map(\.device))
        let expected = Set(devices.sorted { fnv($0) < fnv($1) }.prefix(7))
        let picture = try run.picture()
        let drawn = Set(try #require(picture.svg.element(id: "tracks")).children.compactMap(\.title))
        #expect(drawn == expected)
        #expect(run.report.devices == 60 && run.report.trackDevices == 7)
        #expect(run.report.fixStride >= 2 && run.report.fixStride.nonzeroBitCount == 1)
        #expect(run.report.trackFixes <= 150 + 7 && run.report.trackFixes >= 150 / 2)
        let events = run.events.count
        #expect(run.report.eventStride >= 2 && run.report.eventMarkers <= 9)
        #expect(run.report.eventMarkers == (events + run.report.eventStride - 1) / run.report.eventStride)
        #expect(picture.markers.count == run.report.eventMarkers)
        // Markers are events 0, stride, 2·stride, … in order.
        let kept = run.events.enumerated().filter { $0.offset % run.report.eventStride == 0 }.map(\.element)
        #expect(picture.markers.map(\.title) == kept.map { "\($0.kind) \($0.region)\ndevice \($0.device)\n\($0.time)" })
        let note = try #require(picture.svg.element(id: "sampling-note")).elements(named: "text").map(\.text).joined(separator: " ")
        #expect(note.contains("Tracks of 7 of 60 devices"))
        #expect(note.contains("Every \(run.report.fixStride)th fix") || note.contains("Every \(run.report.fixStride)nd fix"))
        #expect(note.contains("\(run.report.eventMarkers) of \(events) markers"))

        // The same devices whatever the order of the log.
        var shuffled = log
        var random = SplitMix64(seed: 1)
        shuffled.shuffle(using: &random)
        let byDevice = Dictionary(grouping: shuffled, by: \.device).mapValues { $0.sorted { $0.time < $1.time } }
        let reordered = byDevice.keys.sorted { fnv($0) > fnv($1) }.flatMap { byDevice[$0]! }
        let again = try MapRun.run(regions: regions, fixes: try MapRun.csv(reordered), sampling: sampling)
        defer { again.discard() }
        #expect(Set(try #require(try again.picture().svg.element(id: "tracks")).children.compactMap(\.title)) == expected)
    }

    @Test(arguments: [true, false])
    func eventsAreByteIdenticalWithAndWithoutAMap(pipelined: Bool) throws {
        let regions = try Self.parisRegions()
        let fixes = try MapRun.csv(RandomWalks(devices: 20, fixesPerDevice: 300, box: .around(regions)).log(seed: 77))
        let options = MonitorOptions(initial: .enter, dwell: 120, cross: true)
        let plain = try MapRun.run(regions: regions, fixes: fixes, options: options, format: nil, pipelined: pipelined)
        defer { plain.discard() }
        let mapped = try MapRun.run(regions: regions, fixes: fixes, options: options, format: .html, pipelined: pipelined)
        defer { mapped.discard() }
        #expect(plain.ndjson.count > 1000)
        #expect(plain.ndjson == mapped.ndjson)
    }

    @Test func htmlIsOnePageThatFetchesNothing() throws {
        let regions = try Self.parisRegions()
        let run = try MapRun.run(regions: regions, fixes: MapRun.root.appendingPathComponent("Examples/map/paris-walk.csv").path,
                                 options: MonitorOptions(dwell: 600), format: .html)
        defer { run.discard() }
        let html = String(decoding: run.map, as: UTF8.self)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.components(separatedBy: "<script").count == 2 && !html.contains("<script src"))
        for reference in ["src=", "@import", "<link", "https:", "//cdn", "fetch(", "XMLHttpRequest"] {
            #expect(!html.contains(reference), "\(reference)")
        }
        // The only URLs: the SVG namespace (a name, never fetched) and the clip path's own fragment.
        #expect(html.components(separatedBy: "http://").count == 2 && html.contains("xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(!html.replacingOccurrences(of: "url(#gm-clip)", with: "").contains("url("))
        let start = try #require(html.range(of: "<svg ")), end = try #require(html.range(of: "</svg>"))
        let svg = try MapPicture(Data(html[start.lowerBound..<end.upperBound].utf8))
        #expect(svg.markers.count == run.events.count)
        #expect(svg.markers.allSatisfy { !$0.title.isEmpty })
    }

    @Test func libraryUsersCanDrawAMapFromTheMonitorDirectly() throws {
        let regions = try MonitoredRegion.load(featureCollectionAt: MapRun.root.appendingPathComponent("Examples/geo/regions.geojson").path)
        let monitor = try RegionMonitor(regions: regions, options: MonitorOptions(initial: .enter))
        let map = try GeofenceMap(regions: regions)
        var events: [RegionEvent] = []
        let rows = try String(contentsOfFile: MapRun.root.appendingPathComponent("Examples/geo/fixes.csv").path, encoding: .utf8)
            .split(separator: "\n").dropFirst()
        for row in rows {
            let field = row.split(separator: ",").map(String.init)
            let fix = LocationFix(device: field[0], time: RFC3339.date(from: field[1])!,
                                  coordinate: Coordinate(latitude: Double(field[2])!, longitude: Double(field[3])!))
            map.observe(fix)
            for event in monitor.ingest(fix) {
                map.observe(event)
                events.append(event)
            }
        }
        var svg: [UInt8] = []
        let report = try map.write(.svg) { svg += $0 }
        let picture = try MapPicture(Data(svg))
        #expect(report.fixes == rows.count && report.devices == 2 && report.events == events.count && !events.isEmpty)
        #expect(picture.markers.map(\.title) == events.map {
            "\($0.kind.rawValue) \($0.region)\ndevice \($0.device)\n\(RFC3339.string(from: $0.time))"
        })
    }

    @Test(arguments: [MapFormat.svg, .html])
    func awkwardNamesAreEscapedAndTheDocumentStaysWellFormed(format: MapFormat) throws {
        let awkward = "bus <7> & \"A\" 'B' \u{1}\u{FFFE} ünï"
        let regions = [MonitoredRegion(identifier: "zone & <co>", region: try .circle(center: Coordinate(latitude: 10, longitude: 10),
                                                                                          radius: 1_000))]
        let monitor = try RegionMonitor(regions: regions, options: MonitorOptions(initial: .enter))
        var style = MapStyle()
        style.title = "title </svg> & more"
        let map = try GeofenceMap(regions: regions, style: style)
        for (step, latitude) in [10.0, 10.05, 10.0].enumerated() {
            let fix = LocationFix(device: awkward, time: Date(timeIntervalSince1970: Double(step) * 60),
                                  coordinate: Coordinate(latitude: latitude, longitude: 10))
            map.observe(fix)
            monitor.ingest(fix).forEach(map.observe)
        }
        var bytes: [UInt8] = []
        _ = try map.write(format) { bytes += $0 }
        var text = String(decoding: bytes, as: UTF8.self)
        if format == .html {
            let start = try #require(text.range(of: "<svg ")), end = try #require(text.range(of: "</svg>"))
            text = String(text[start.lowerBound..<end.upperBound])
        }
        let picture = try MapPicture(Data(text.utf8))
        let name = "bus <7> & \"A\" 'B' \u{FFFD}\u{FFFD} ünï"
        #expect(picture.markers.map(\.title) == ["enter zone & <co>\ndevice \(name)\n1970-01-01T00:00:00Z",
                                                   "exit zone & <co>\ndevice \(name)\n1970-01-01T00:01:00Z",
                                                   "enter zone & <co>\ndevice \(name)\n1970-01-01T00:02:00Z"])
        #expect(picture.svg.element(id: "tracks")?.children.first?.title == name)
        #expect(picture.svg.title == "title </svg> & more")
    }
}
