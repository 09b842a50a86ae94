#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Regions: polygons with their holes (even-odd fill), circles as their true
/// outline on the ground, each with its identifier as a tooltip and a label.
extension SVGMapWriter {
    mutating func regions() {
        text("<g id=\"regions\">\n")
        for (index, region) in map.regions.enumerated() {
            switch region.region.shape {
            case .circle(let center, let radius):
                circle(index, region.identifier, center: center, radius: radius)
            case .polygons(let polygons):
                polygonRegion(index, region.identifier, polygons)
            }
        }
        text("</g>\n")
    }

    private mutating func circle(_ index: Int, _ identifier: String, center: Coordinate, radius: Double) {
        // About one outline point per 3 pixels of circumference.
        let circumference = 2 * Double.pi * radius / frame.metresPerPixel(atLatitude: center.latitude)
        let outline = RegionOutline.circle(center: center, radius: radius,
                                           count: min(max(Int(circumference / 3), 32), 256))
        regionOpen(index, identifier, kind: "circle", unstroked: false)
        if outline.coversBothPoles {
            text("M0 0H"); number(frame.width); text("V"); number(frame.height); text("H0Z")
        } else {
            let shift = frame.windowed(longitude: center.longitude) - center.longitude
            subpathWithCopies(outline.ring, shift: shift, closed: true)
        }
        text("\"><title>"); escaped(identifier); text("</title></path>\n")
        let (x, y) = frame.pixel(of: center)
        let radius = circumference / (2 * Double.pi)
        dotIfTiny(identifier, x: x, y: y, size: 2 * radius)
        if labels.keepCrowded || 2 * radius >= LabelPlacement.width(of: identifier) {
            labels.place(identifier, candidates: [(x, y + 4), (x, y - radius - 5), (x, y + radius + 13)])
        }
    }

    private mutating func polygonRegion(_ index: Int, _ identifier: String, _ polygons: [Region.Polygon]) {
        // A polygon split at the antimeridian (RFC 7946 §3.1.9) has edges along
        // ±180 that are no boundary of the region: its outline leaves them out.
        let split = polygons.contains { $0.rings.contains { $0.contains { abs($0.x) == 180 } } }
        regionOpen(index, identifier, kind: "polygon", unstroked: split)
        var label: (point: XY, width: Double)?
        var box = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
        for polygon in polygons {
            let shift = polygonShift(polygon)
            let range = longitudeRange(polygon.rings[0])
            let latitudes = polygon.rings[0].map(\.y)
            box.minX = min(box.minX, frame.pixelX(unwrappedLongitude: range.lowerBound + shift))
            box.maxX = max(box.maxX, frame.pixelX(unwrappedLongitude: range.upperBound + shift))
            box.minY = min(box.minY, frame.pixelY(latitude: latitudes.max() ?? 0))
            box.maxY = max(box.maxY, frame.pixelY(latitude: latitudes.min() ?? 0))
            for copy in copies(range.lowerBound + shift, range.upperBound + shift) {
                for ring in polygon.rings { subpath(ring, shift: shift + copy, closed: true) }
            }
            if let found = RegionOutline.labelPoint(of: polygon.rings), found.width > (label?.width ?? 0) {
                label = (XY(found.point.x + shift, found.point.y), found.width)
            }
        }
        text("\"><title>"); escaped(identifier); text("</title></path>\n")
        if split {
            text("<path class=\"edge\" d=\"")
            for polygon in polygons {
                let shift = polygonShift(polygon)
                for ring in polygon.rings { outlineSkippingAntimeridian(ring, shift: shift) }
            }
            text("\"/>\n")
        }
        dotIfTiny(identifier, x: (box.minX + box.maxX) / 2, y: (box.minY + box.maxY) / 2,
                  size: max(box.maxX - box.minX, box.maxY - box.minY))
        if let label {
            let widthInPixels = label.width * GeoMath.radiansPerDegree * WebMercator.radius * frame.scale
            if labels.keepCrowded || widthInPixels >= LabelPlacement.width(of: identifier) {
                let x = frame.pixelX(unwrappedLongitude: label.point.x), y = frame.pixelY(latitude: label.point.y)
                labels.place(identifier, candidates: [(x, y + 4), (x, y - 9), (x, y + 17)])
            }
        }
    }

    /// A region smaller than 4 pixels across (a city on a map of a continent)
    /// would vanish: it gets a dot of 3 pixels' radius in the regions' colours as
    /// well, with its identifier as tooltip.
    private mutating func dotIfTiny(_ identifier: String, x: Double, y: Double, size: Double) {
        guard size < 4 else { return }
        text("<circle class=\"region dot\" cx=\""); number(x); text("\" cy=\""); number(y)
        text("\" r=\"3\"><title>"); escaped(identifier); text("</title></circle>\n")
    }

    private mutating func regionOpen(_ index: Int, _ identifier: String, kind: String, unstroked: Bool) {
        text("<path class=\"region\(unstroked ? " unstroked" : "")\" data-region=\"\(index)\" data-shape=\"\(kind)\" d=\"")
    }

    /// The shift that brings a polygon part into the window: parts lie within
    /// −180…180, and one west of the cut is drawn 360° further east.
    private func polygonShift(_ polygon: Region.Polygon) -> Double {
        let range = longitudeRange(polygon.rings[0])
        return frame.windowed(longitude: range.lowerBound) - range.lowerBound
    }

    func longitudeRange(_ points: [XY]) -> ClosedRange<Double> {
        var low = Double.infinity, high = -Double.infinity
        for point in points {
            low = min(low, point.x)
            high = max(high, point.x)
        }
        return low <= high ? low...high : 0...0
    }

    /// The shifts (0, and ±360 when that copy shows) at which something spanning
    /// these longitudes is drawn: a track or outline that runs past the cut
    /// shows again at the other side, as on a web map.
    func copies(_ low: Double, _ high: Double) -> [Double] {
        let visible = frame.longitudeSpan
        var shifts = [0.0]
        if high - 360 >= visible.lowerBound - 1 && low - 360 <= visible.upperBound { shifts.append(-360) }
        if low + 360 <= visible.upperBound + 1 && high + 360 >= visible.lowerBound { shifts.append(360) }
        return shifts
    }

    mutating func subpathWithCopies(_ points: [XY], shift: Double, closed: Bool) {
        let range = longitudeRange(points)
        for copy in copies(range.lowerBound + shift, range.upperBound + shift) {
            subpath(points, shift: shift + copy, closed: closed)
        }
    }

    /// One subpath in pixels (`M x y L x y …`), longitudes moved by `shift`;
    /// points within half a pixel of the last one written are left out (the last
    /// point is always written). A lone point is written as a dot (`l0 0`).
    /// - Returns: how many points were written.
    @discardableResult
    mutating func subpath(_ points: [XY], shift: Double, closed: Bool) -> Int {
        guard let lastIndex = points.indices.last else { return 0 }
        var written = 0
        var lastX = 0.0, lastY = 0.0
        for index in points.indices {
            let point = points[index]
            let x = frame.pixelX(unwrappedLongitude: point.x + shift), y = frame.pixelY(latitude: point.y)
            if written > 0 && abs(x - lastX) < 0.5 && abs(y - lastY) < 0.5 && index != lastIndex { continue }
            text(written == 0 ? "M" : (written == 1 ? "L" : " "))
            number(x); text(" "); number(y)
            lastX = x
            lastY = y
            written += 1
        }
        if written == 1 { text("l0 0") }
        if closed { text("Z") }
        return written
    }

    /// A ring's outline without its edges along the antimeridian.
    private mutating func outlineSkippingAntimeridian(_ ring: [XY], shift: Double) {
        var penDown = false
        for (a, b) in zip(ring, ring.dropFirst()) {
            if a.x == b.x && abs(a.x) == 180 {
                penDown = false
                continue
            }
            if !penDown {
                text("M"); number(frame.pixelX(unwrappedLongitude: a.x + shift)); text(" "); number(frame.pixelY(latitude: a.y))
                penDown = true
            }
            text("L"); number(frame.pixelX(unwrappedLongitude: b.x + shift)); text(" "); number(frame.pixelY(latitude: b.y))
        }
    }

    mutating func regionLabels() {
        text("<g id=\"labels\">\n")
        for label in labels.placed {
            text("<text class=\"label\" x=\""); number(label.x); text("\" y=\""); number(label.y)
            text("\">"); escaped(label.text); text("</text>\n")
        }
        text("</g>\n")
    }
}
