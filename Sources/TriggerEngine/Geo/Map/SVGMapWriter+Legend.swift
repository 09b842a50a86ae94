import Foundation

/// The legend panel beside the map: title, projection, time span, counts, a key
/// for regions, tracks and events, and what sampling left out.
extension SVGMapWriter {
    enum LegendItem {
        case title(String)
        case line(String)
        case small(String)
        case heading(String)
        case region(circle: Bool, String)
        /// A drawn device's colour and name; `nil` colour: many thin tracks.
        case track(colour: Int?, String)
        case marker(RegionEvent.Kind, String)
        case gap
        /// The north arrow and the scale bar.
        case furniture
        case begin(id: String)
        case end

        var height: Double {
            switch self {
            case .title: 20
            case .heading: 21
            case .line: 16
            case .small: 14
            case .region, .track, .marker: 18
            case .gap: 8
            case .furniture: 44
            case .begin, .end: 0
            }
        }
    }

    func legendHeight(_ items: [LegendItem]) -> Double {
        // Room for the note's lines to grow once the drawn counts are known.
        items.reduce(24) { $0 + $1.height } + 2 * LegendItem.small("").height + 12
    }

    func legendItems() -> [LegendItem] {
        var items: [LegendItem] = Self.wrapped(style.title, width: 30).map(LegendItem.title)
        items.append(.small("Web Mercator (EPSG:3857), fitted to the data"))
        items.append(.gap)
        items.append(.begin(id: "time-span"))
        items.append(.heading("Time span (UTC)"))
        if report.fixes > 0 {
            items.append(.line("from " + RFC3339.string(from: Date(timeIntervalSince1970: map.firstTime))))
            items.append(.line("to " + RFC3339.string(from: Date(timeIntervalSince1970: map.lastTime))))
            items.append(.small(Self.duration(map.lastTime - map.firstTime)))
        } else {
            items.append(.line("no fixes"))
        }
        items.append(.end)
        items.append(.gap)
        items.append(.line("\(MapReport.grouped(report.fixes)) fixes from \(MapReport.grouped(report.devices)) devices"))
        items.append(.line("\(MapReport.grouped(map.regions.count)) regions, \(MapReport.grouped(report.events)) events"))
        items.append(.gap)
        items.append(.heading("Regions"))
        let circles = map.regions.filter { $0.region.circle != nil }.count
        if map.regions.count > circles { items.append(.region(circle: false, "polygon (\(map.regions.count - circles))")) }
        if circles > 0 { items.append(.region(circle: true, "circle (\(circles))")) }
        if map.regions.isEmpty { items.append(.small("none")) }
        items.append(.heading("Tracks"))
        if report.trackDevices <= map.sampling.namedDevices {
            for (rank, device) in map.drawnDevices.enumerated() {
                let name = map.names[Int(device)]
                items.append(.track(colour: rank % style.trackColours.count,
                                    name.count > 30 ? String(name.prefix(29)) + "…" : name))
            }
            if report.trackDevices == 0 { items.append(.small("none")) }
        } else {
            items.append(.track(colour: nil, "\(MapReport.grouped(report.trackDevices)) devices, thin lines"))
        }
        items.append(.heading("Events"))
        for kind in RegionEvent.Kind.allCases {
            items.append(.marker(kind, "\(kind.rawValue)  \(MapReport.grouped(map.eventCounts[kind.ordinal]))"))
        }
        items.append(.gap)
        items.append(.furniture)
        if let note = report.note {
            items.append(.gap)
            items.append(.begin(id: "sampling-note"))
            items.append(.heading("Sampled"))
            items += Self.wrapped(note, width: 44).map(LegendItem.small)
            items.append(.end)
        }
        return items
    }

    mutating func writeLegend(height: Double) {
        let items = legendItems()
        text("<g id=\"legend\" class=\"legend\" transform=\"translate("); number(frame.width); text(" 0)\">\n")
        text("<rect class=\"panel\" width=\""); number(style.legendWidth); text("\" height=\""); number(height); text("\"/>\n")
        var y = 16.0
        for item in items {
            y += item.height
            switch item {
            case .title(let line):
                legendText(line, y: y - 4, className: "title")
            case .line(let line):
                legendText(line, y: y - 4, className: nil)
            case .small(let line):
                legendText(line, y: y - 3, className: "small")
            case .heading(let line):
                legendText(line, y: y - 4, className: "heading")
            case .region(let circle, let label):
                if circle {
                    text("<circle class=\"region\" cx=\"26\" cy=\""); number(y - 8); text("\" r=\"7\"/>")
                } else {
                    text("<rect class=\"region\" x=\"16\" y=\""); number(y - 14); text("\" width=\"20\" height=\"12\"/>")
                }
                legendText(label, y: y - 4, className: nil, x: 44)
            case .track(let colour, let label):
                let shades = colour.map { [$0] } ?? [0, 1, 2]
                for (index, shade) in shades.enumerated() {
                    text("<path class=\"track c\(shade)\" d=\"M14 "); number(y - 8 + Double(index * 3) - (colour == nil ? 3 : 0))
                    text("h24\"/>")
                }
                legendText(label, y: y - 4, className: nil, x: 44)
            case .marker(let kind, let label):
                marker(kind, x: 26, y: y - 8, open: false)
                legendText(label, y: y - 4, className: nil, x: 44)
            case .gap:
                break
            case .furniture:
                northArrow(x: 26, y: y - 28)
                scaleBar(x: 48, y: y - 26)
            case .begin(let id):
                text("<g id=\"\(id)\">")
            case .end:
                text("</g>\n")
            }
        }
        text("</g>\n")
    }

    private mutating func legendText(_ line: String, y: Double, className: String?, x: Double = 14) {
        text("<text x=\""); number(x); text("\" y=\""); number(y); text("\"")
        if let className { text(" class=\"\(className)\"") }
        text(">"); escaped(line); text("</text>\n")
    }

    /// Words in lines of at most `width` characters (a longer word stands alone).
    static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// "2 h 21 min 53 s", "4 d 3 h", "12 s".
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let days = total / 86_400, hours = total / 3600 % 24, minutes = total / 60 % 60, rest = total % 60
        if days > 0 { return "\(days) d \(hours) h" }
        if hours > 0 { return "\(hours) h \(minutes) min \(rest) s" }
        if minutes > 0 { return "\(minutes) min \(rest) s" }
        return "\(rest) s"
    }
}
