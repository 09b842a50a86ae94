import Foundation
import Testing
@_spi(Internals) @testable import TriggerEngine

/// Maps drawn by a real renderer (`rsvg-convert`), checked as a person would look
/// at them: the colour of the picture where the tests' own geometry says a
/// region, a hole, a circle's edge or an event is.
@Suite("Maps rendered by rsvg-convert: region fills, holes, circles and event markers where they belong")
struct MapRenderingTests {
    static let style = MapStyle()
    static let background = PNGImage.Pixel(css: style.background)
    static let fill = PNGImage.Pixel(css: style.regionFill)

    /// The colour of a point inside `count` overlapping regions.
    static func regionColour(layers count: Int) -> PNGImage.Pixel {
        (0..<count).reduce(background) { colour, _ in colour.under(fill, opacity: style.regionOpacity) }
    }

    /// The tests' own inside test: haversine for circles, even-odd over the rings for polygons.
    static func contains(_ region: Region, latitude: Double, longitude: Double) -> Bool {
        switch region.shape {
        case .circle(let center, let radius):
            return GeoMath.haversine(lat1: center.latitude, lon1: center.longitude, lat2: latitude, lon2: longitude) <= radius
        case .polygons(let polygons):
            var inside = false
            for ring in polygons.flatMap(\.rings) {
                for (a, b) in zip(ring, ring.dropFirst()) where (a.y > latitude) != (b.y > latitude) {
                    if longitude < a.x + (latitude - a.y) / (b.y - a.y) * (b.x - a.x) { inside.toggle() }
                }
            }
            return inside
        }
    }

    /// Where nothing but regions and the background is drawn near a pixel.
    struct Clearance {
        let picture: MapPicture
        let segments: [(Double, Double, Double, Double)]
        let markers: [(x: Double, y: Double)]
        let labels: [(minX: Double, minY: Double, maxX: Double, maxY: Double)]
        let grid: (meridians: [Double], parallels: [Double])
        /// Region outlines in pixels (the tests' projection), with their boxes.
        let outlines: [(box: (Double, Double, Double, Double), segments: [(Double, Double, Double, Double)])]
        let circles: [(center: Coordinate, radius: Double)]

        init(_ picture: MapPicture, regions: [MonitoredRegion]) {
            self.picture = picture
            segments = picture.trackSegments
            markers = picture.markers.map { ($0.x, $0.y) }
            labels = picture.labelBoxes
            grid = picture.gridLines
            var outlines: [(box: (Double, Double, Double, Double), segments: [(Double, Double, Double, Double)])] = []
            var circles: [(center: Coordinate, radius: Double)] = []
            for region in regions {
                switch region.region.shape {
                case .circle(let center, let radius):
                    circles.append((center, radius))
                case .polygons(let polygons):
                    for ring in polygons.flatMap(\.rings) {
                        let points = ring.map { picture.pixel(latitude: $0.y, longitude: $0.x) }
                        let box = (points.map(\.x).min()! - 4, points.map(\.y).min()! - 4,
                                   points.map(\.x).max()! + 4, points.map(\.y).max()! + 4)
                        outlines.append((box, zip(points, points.dropFirst()).map { ($0.x, $0.y, $1.x, $1.y) }))
                    }
                }
            }
            self.outlines = outlines
            self.circles = circles
        }

        func isClear(x: Double, y: Double) -> Bool {
            guard x > 60, x < picture.mapWidth - 10, y > 20, y < picture.mapHeight - 10 else { return false }
            if grid.meridians.contains(where: { abs($0 - x) < 2.5 }) || grid.parallels.contains(where: { abs($0 - y) < 2.5 }) { return false }
            if markers.contains(where: { hypot($0.x - x, $0.y - y) < 10 }) { return false }
            if labels.contains(where: { x >= $0.minX && x <= $0.maxX && y >= $0.minY && y <= $0.maxY }) { return false }
            if segments.contains(where: { MapPicture.distance(x, y, toSegment: $0) < 5 }) { return false }
            for outline in outlines where x >= outline.box.0 && x <= outline.box.2 && y >= outline.box.1 && y <= outline.box.3 {
                if outline.segments.contains(where: { MapPicture.distance(x, y, toSegment: $0) < 3 }) { return false }
            }
            let (latitude, longitude) = picture.coordinate(x: x, y: y)
            let metresPerPixel = WebMercator.groundMetresPerProjectedMetre(atLatitude: latitude) / picture.scale
            for circle in circles {
                let distance = GeoMath.haversine(lat1: circle.center.latitude, lon1: circle.center.longitude,
                                                 lat2: latitude, lon2: GeoMath.wrappedDelta(longitude, from: 0))
                if abs(distance - circle.radius) < 3 * metresPerPixel { return false }
            }
            return true
        }
    }

    /// Checks every clear pixel on a grid: the colour of the regions the tests'
    /// geometry puts it in (none: the background). Returns pixels checked inside
    /// regions, outside all, and inside a hole.
    @discardableResult
    static func checkRegionFills(_ image: PNGImage, _ picture: MapPicture, _ regions: [MonitoredRegion], step: Double = 9)
        -> (inside: Int, outside: Int, inHoles: Int) {
        let clearance = Clearance(picture, regions: regions)
        var inside = 0, outside = 0, inHoles = 0, wrong = 0
        var y = 0.5
        while y < picture.mapHeight {
            var x = 0.5
            while x < picture.mapWidth {
                defer { x += step }
                guard clearance.isClear(x: x, y: y) else { continue }
                let (latitude, rawLongitude) = picture.coordinate(x: x, y: y)
                let longitude = GeoMath.wrappedDelta(rawLongitude, from: 0)
                let layers = regions.filter { contains($0.region, latitude: latitude, longitude: longitude) }.count
                let expected = regionColour(layers: layers)
                let actual = image.pixel(atX: x, y: y)
                if actual.distance(to: expected) > 3 {
                    wrong += 1
                    if wrong <= 5 { Issue.record("pixel \(x), \(y) (\(latitude), \(longitude)): \(actual), expected \(expected) for \(layers) regions") }
                }
                if layers > 0 { inside += 1 } else { outside += 1 }
                let inAHole = regions.contains { region in
                    guard case .polygons(let polygons) = region.region.shape else { return false }
                    return polygons.contains { polygon in
                        contains(Region(shape: .polygons([Region.Polygon(rings: [polygon.rings[0]])])), latitude: latitude, longitude: longitude)
                            && !contains(Region(shape: .polygons([polygon])), latitude: latitude, longitude: longitude)
                    }
                }
                if inAHole { inHoles += 1 }
            }
            y += step
        }
        #expect(wrong == 0, "\(wrong) pixels of the wrong colour")
        return (inside, outside, inHoles)
    }

    /// Checks the colour at the fix of every event that no later marker comes
    /// near. Returns the kinds checked, with how many of each.
    @discardableResult
    static func checkMarkers(_ image: PNGImage, _ picture: MapPicture, _ events: [MapRun.Event]) -> [String: Int] {
        let placed = events.map { (event: $0, at: picture.pixel(latitude: $0.latitude, longitude: $0.longitude)) }
        var checked: [String: Int] = [:]
        for (index, marker) in placed.enumerated() {
            // A later marker near enough that its fill or white outline reaches this
            // fix (markers are drawn in event order, so earlier ones lie beneath; one
            // of the same kind at the very same place looks the same).
            let crowded = placed[(index + 1)...].contains { other in
                let distance = hypot(other.at.x - marker.at.x, other.at.y - marker.at.y)
                return distance < 14 && !(other.event.kind == marker.event.kind && distance < 0.1)
            }
            guard !crowded else { continue }
            let kind = try! #require(RegionEvent.Kind(rawValue: marker.event.kind))
            let expected = PNGImage.Pixel(css: style.colour(of: kind))
            let actual = image.pixel(atX: marker.at.x, y: marker.at.y)
            #expect(actual.distance(to: expected) <= 3, "\(marker.event) at \(marker.at): \(actual), expected \(expected)")
            checked[marker.event.kind, default: 0] += 1
        }
        return checked
    }

    @Test func polygonWithAHoleACircleAtSixtyNorthAndEventMarkers() throws {
        let block = try Region(geoJSON: #"{"type": "Polygon", "coordinates": ["#
            + "[[24.90, 60.15], [24.96, 60.15], [24.96, 60.18], [24.90, 60.18], [24.90, 60.15]],"
            + "[[24.92, 60.16], [24.94, 60.16], [24.94, 60.17], [24.92, 60.17], [24.92, 60.16]]]}")
        let regions = [MonitoredRegion(identifier: "block", region: block),
                       MonitoredRegion(identifier: "ring", region: try .circle(center: Coordinate(latitude: 60.205, longitude: 25.01),
                                                                               radius: 1_500))]
        // A walk round the block, through the circle (enter, dwell, exit), and one
        // long step over the circle's middle (cross).
        var fixes: [LocationFix] = []
        let legs: [(to: (Double, Double), steps: Int)] = [((60.13, 25.06), 25), ((60.19, 25.06), 25), ((60.225, 24.99), 25),
                                                          ((60.225, 24.93), 25), ((60.215, 24.95), 5), ((60.195, 25.07), 1)]
        var position = (60.13, 24.85)
        var time = 1_790_000_000.0
        for leg in legs {
            for step in 1...leg.steps {
                let t = Double(step) / Double(leg.steps)
                let coordinate = Coordinate(latitude: position.0 + (leg.to.0 - position.0) * t,
                                            longitude: position.1 + (leg.to.1 - position.1) * t)
                fixes.append(LocationFix(device: "walker", time: Date(timeIntervalSince1970: time), coordinate: coordinate))
                time += 60
            }
            position = leg.to
        }
        let run = try MapRun.run(regions: regions, fixes: try MapRun.csv(fixes),
                                 options: MonitorOptions(initial: .enter, dwell: 300, cross: true))
        defer { run.discard() }
        let picture = try run.picture()
        let image = try Renderer.render(try run.svgFile("synthetic.svg"))
        #expect(Double(image.width) == picture.mapWidth + Self.style.legendWidth)

        // The middle of the hole is background; the block's ring, below the hole
        // (clear of the 24.95° meridian), is filled.
        let hole = picture.pixel(latitude: 60.165, longitude: 24.93)
        #expect(image.pixel(atX: hole.x, y: hole.y).distance(to: Self.background) <= 2)
        let band = picture.pixel(latitude: 60.1535, longitude: 24.945)
        #expect(image.pixel(atX: band.x, y: band.y).distance(to: Self.regionColour(layers: 1)) <= 3)

        // The circle is round on the ground: filled at 0.85 r and bare at 1.15 r all round.
        let clearance = Clearance(picture, regions: regions)
        var checked = 0
        for bearing in stride(from: 0.0, to: 360, by: 22.5) {
            for (fraction, layers) in [(0.85, 1), (1.15, 0)] {
                let angle = 1_500 * fraction / GeoMath.earthRadius, theta = bearing * Double.pi / 180
                let phi1 = 60.205 * Double.pi / 180
                let phi2 = asin(sin(phi1) * cos(angle) + cos(phi1) * sin(angle) * cos(theta))
                let lambda = 25.01 + atan2(sin(theta) * sin(angle) * cos(phi1), cos(angle) - sin(phi1) * sin(phi2)) * 180 / Double.pi
                let point = picture.pixel(latitude: phi2 * 180 / Double.pi, longitude: lambda)
                guard clearance.isClear(x: point.x, y: point.y) else { continue }
                checked += 1
                #expect(image.pixel(atX: point.x, y: point.y).distance(to: Self.regionColour(layers: layers)) <= 3,
                        "bearing \(bearing) at \(fraction) r")
            }
        }
        #expect(checked >= 20)
        let events = run.events
        #expect(Set(events.map { $0.kind }) == ["enter", "exit", "dwell", "cross"])
        #expect(Self.checkMarkers(image, picture, events).values.reduce(0, +) >= events.count - 2)
        let counts = Self.checkRegionFills(image, picture, regions, step: 7)
        #expect(counts.inside >= 100 && counts.outside >= 100 && counts.inHoles >= 10, "\(counts)")
    }

    struct Example: Sendable, CustomStringConvertible {
        var name: String, regions: String, fixes: String, columns: String?
        var options: MonitorOptions
        var description: String { name }
    }

    static let examples = [
        Example(name: "liverpool", regions: "Examples/geo/regions.geojson",
                fixes: "Tests/TriggerEngineTests/Fixtures/geo/liverpool-bus-route14.csv",
                columns: "device=vehicle_id,time=timestamp,lat=latitude,lon=longitude",
                options: MonitorOptions(initial: .enter, dwell: 120, cross: true)),
        Example(name: "paris", regions: "Tests/TriggerEngineTests/Fixtures/geo/paris.geojson",
                fixes: "Examples/map/paris-walk.csv", columns: nil, options: MonitorOptions(dwell: 600, cross: true)),
        Example(name: "pacific", regions: "Examples/map/pacific.geojson", fixes: "Examples/map/pacific-crossing.csv",
                columns: nil, options: MonitorOptions(cross: true)),
    ]

    @Test(arguments: examples)
    func realExampleHasItsFillsHolesAndMarkersWhereTheyBelong(_ example: Example) throws {
        let regions = try MonitoredRegion.load(featureCollectionAt: MapRun.root.appendingPathComponent(example.regions).path)
        let run = try MapRun.run(regions: regions, fixes: MapRun.root.appendingPathComponent(example.fixes).path,
                                 columns: try example.columns.map { try LocationLogColumns(mapping: $0) } ?? LocationLogColumns(),
                                 options: example.options)
        defer { run.discard() }
        let picture = try run.picture()
        let image = try Renderer.render(try run.svgFile("\(example.name).svg"))
        let events = run.events
        #expect(events.count >= 15)
        // Real runs crowd their markers at stops (the synthetic map checks every kind
        // alone); enough stand clear here, enters and exits among them.
        let markers = Self.checkMarkers(image, picture, events)
        #expect(markers.values.reduce(0, +) >= 10 && markers["enter"] != nil && markers["exit"] != nil,
                "\(markers) of \(events.count) markers stand clear")
        let counts = Self.checkRegionFills(image, picture, regions)
        #expect(counts.inside >= 40 && counts.outside >= 40, "\(counts)")
        if example.name != "paris" { #expect(counts.inHoles >= 5, "\(counts)") }
    }
}
