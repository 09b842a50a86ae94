import Foundation
@_spi(Internals) @testable import TriggerEngine

/// A map as the tests read it: the SVG parsed as XML, and the frame its `data-`
/// attributes state, with the tests' own Web Mercator (the ln tan form, written
/// here from the definition of EPSG:3857, not the library's atanh form) to put
/// longitudes and latitudes on it.
struct MapPicture {
    let svg: SVGElement
    let west: Double, scale: Double, originX: Double, originY: Double
    let mapWidth: Double, mapHeight: Double

    static let radius = 6_378_137.0
    static let maxLatitude = 85.0511287798066

    init(_ data: Data) throws {
        let root = try SVGElement.parse(data)
        svg = root
        func number(_ name: String) throws -> Double {
            guard let text = root[name], let value = Double(text) else {
                throw SVGElement.Failure(description: "the svg has no number in \(name)")
            }
            return value
        }
        west = try number("data-west")
        scale = try number("data-scale")
        originX = try number("data-origin-x")
        originY = try number("data-origin-y")
        mapWidth = try number("data-map-width")
        mapHeight = try number("data-map-height")
    }

    /// Where a position is drawn: its longitude moved past the cut when west of it.
    func pixel(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        let lon = longitude < west ? longitude + 360 : longitude
        let lat = min(max(latitude, -Self.maxLatitude), Self.maxLatitude) * Double.pi / 180
        let x = Self.radius * lon * Double.pi / 180
        let y = Self.radius * log(tan(Double.pi / 4 + lat / 2))
        return ((x - originX) * scale, (originY - y) * scale)
    }

    /// The position drawn at a pixel (longitude possibly beyond 180).
    func coordinate(x: Double, y: Double) -> (latitude: Double, longitude: Double) {
        let mx = x / scale + originX, my = originY - y / scale
        let latitude = (2 * atan(exp(my / Self.radius)) - Double.pi / 2) * 180 / Double.pi
        return (latitude, mx / Self.radius * 180 / Double.pi)
    }

    /// Event markers in document order: kind, centre and tooltip.
    var markers: [(kind: String, x: Double, y: Double, title: String)] {
        guard let events = svg.element(id: "events") else { return [] }
        return events.children.compactMap { element in
            guard let kind = element.classes.last else { return nil }
            switch element.name {
            case "circle":
                return (kind, Double(element["cx"]!)!, Double(element["cy"]!)!, element.title ?? "")
            case "rect":
                return (kind, Double(element["x"]!)! + Double(element["width"]!)! / 2,
                        Double(element["y"]!)! + Double(element["height"]!)! / 2, element.title ?? "")
            default:
                let points = element.subpaths.first ?? []
                return (kind, points.map(\.x).reduce(0, +) / Double(max(points.count, 1)),
                        points.map(\.y).reduce(0, +) / Double(max(points.count, 1)), element.title ?? "")
            }
        }
    }

    /// Track segments in pixels, every drawn piece.
    var trackSegments: [(Double, Double, Double, Double)] {
        var segments: [(Double, Double, Double, Double)] = []
        for path in svg.element(id: "tracks")?.children ?? [] {
            for points in path.subpaths {
                if points.count == 1 { segments.append((points[0].x, points[0].y, points[0].x, points[0].y)) }
                for (a, b) in zip(points, points.dropFirst()) { segments.append((a.x, a.y, b.x, b.y)) }
            }
        }
        return segments
    }

    /// Boxes around region labels, generous (bold 11 px text, about 8 px a character).
    var labelBoxes: [(minX: Double, minY: Double, maxX: Double, maxY: Double)] {
        (svg.element(id: "labels")?.children ?? []).map { text in
            let x = Double(text["x"]!)!, y = Double(text["y"]!)!
            let half = Double(text.text.count) * 4 + 6
            return (x - half, y - 14, x + half, y + 6)
        }
    }

    /// Graticule lines: x of the meridians and y of the parallels.
    var gridLines: (meridians: [Double], parallels: [Double]) {
        var meridians: [Double] = [], parallels: [Double] = []
        let d = svg.element(id: "graticule")?.children.first { $0.name == "path" }?["d"] ?? ""
        for piece in d.split(separator: "M") {
            if let v = piece.firstIndex(of: "V") {
                meridians.append(Double(piece[..<v].split(separator: " ")[0])!)
            } else if let h = piece.firstIndex(of: "H") {
                parallels.append(Double(piece[..<h].split(separator: " ")[1])!)
            }
        }
        return (meridians, parallels)
    }

    static func distance(_ px: Double, _ py: Double, toSegment s: (Double, Double, Double, Double)) -> Double {
        let (ax, ay, bx, by) = s
        let dx = bx - ax, dy = by - ay
        let length2 = dx * dx + dy * dy
        let t = length2 > 0 ? min(1, max(0, ((px - ax) * dx + (py - ay) * dy) / length2)) : 0
        return hypot(px - ax - t * dx, py - ay - t * dy)
    }
}
