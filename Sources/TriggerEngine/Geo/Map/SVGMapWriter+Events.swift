import Foundation

/// Events: a marker at the fix of each, by kind (enter ● green, exit ● red,
/// dwell ■ amber, cross ◆ purple, outlined in white), with the kind, region,
/// device and time as its tooltip.
extension SVGMapWriter {
    mutating func events() throws {
        let kinds = RegionEvent.Kind.allCases
        let stride = Int64(map.eventStride)
        var drawn = 0
        // Identifiers escaped once each, not once per event.
        let regionTitles = map.regions.map { escapedBytes($0.identifier) }
        var deviceTitles = [[UInt8]?](repeating: nil, count: map.names.count)
        text("<g id=\"events\">\n")
        while let event = try map.eventSpool.next(EventRecord.self) {
            guard event.sequence % stride == 0 else { continue }
            let kind = kinds[Int(event.kind)]
            let (x, y) = frame.pixel(of: Coordinate(latitude: event.latitude, longitude: event.longitude))
            marker(kind, x: x, y: y, open: true)
            text(" data-region=\""); integer(Int(event.region))
            text("\" data-device=\""); integer(Int(event.device))
            text("\"><title>"); text(kind.rawValue); text(" ")
            out += regionTitles[Int(event.region)]
            text("\ndevice ")
            let device = Int(event.device)
            if deviceTitles[device] == nil { deviceTitles[device] = escapedBytes(map.names[device]) }
            out += deviceTitles[device]!
            text("\n"); text(RFC3339.string(from: Date(timeIntervalSince1970: event.time)))
            text("</title></"); text(Self.markerElement(kind)); text(">\n")
            drawn += 1
            try flushIfFull()
        }
        text("</g>\n")
        report.eventMarkers = drawn
    }

    static func markerElement(_ kind: RegionEvent.Kind) -> String {
        switch kind {
        case .enter, .exit: "circle"
        case .dwell: "rect"
        case .cross: "path"
        }
    }

    /// A marker centred at (x, y): the element with its geometry, left open
    /// (`open`) for attributes and a title, or closed.
    mutating func marker(_ kind: RegionEvent.Kind, x: Double, y: Double, open: Bool) {
        let r = style.markerRadius
        text("<\(Self.markerElement(kind)) class=\"ev \(kind.rawValue)\" ")
        switch kind {
        case .enter, .exit:
            text("cx=\""); number(x); text("\" cy=\""); number(y); text("\" r=\""); number(r); text("\"")
        case .dwell:
            text("x=\""); number(x - r); text("\" y=\""); number(y - r)
            text("\" width=\""); number(2 * r); text("\" height=\""); number(2 * r); text("\"")
        case .cross:
            let d = r * 1.3
            text("d=\"M"); number(x); text(" "); number(y - d)
            text("L"); number(x + d); text(" "); number(y)
            text(" "); number(x); text(" "); number(y + d)
            text(" "); number(x - d); text(" "); number(y); text("Z\"")
        }
        text(open ? "" : "/>")
    }
}
