/// Writes a `GeofenceMap` as SVG (or HTML around it) once the run is over: the
/// frame is known, tracks and events are read back from the spools in order, and
/// bytes go to the output a block at a time, so nothing grows with the run.
///
/// The document, in drawing order:
///
///     <svg data-projection="EPSG:3857" data-west=… data-scale=… data-origin-x=… data-origin-y=…>
///       <g id="map" clip-path=…>  graticule, regions, tracks, labels, events  </g>
///       <g id="legend"> (title, time span, counts, keys, note, north arrow, scale bar)
///
/// The `data-` attributes state the frame (`MapFrame`), so that a reader (a test,
/// a script) can put any longitude/latitude on the picture without this code.
struct SVGMapWriter {
    let map: GeofenceMap
    let style: MapStyle
    let frame: MapFrame
    let format: MapFormat
    var report: MapReport
    private let output: ([UInt8]) throws -> Void
    var out: [UInt8] = []
    /// Region labels, placed with the regions and drawn above the tracks.
    var labels: LabelPlacement

    init(map: GeofenceMap, report: MapReport, format: MapFormat, output: @escaping ([UInt8]) throws -> Void) {
        self.map = map
        style = map.style
        frame = report.frame
        self.format = format
        self.report = report
        self.output = output
        labels = LabelPlacement(keepCrowded: map.regions.count <= Self.namedRegions)
        out.reserveCapacity(1 << 17)
    }

    /// Up to this many regions, every region is labelled; beyond, only those
    /// whose label fits inside them and covers no other label.
    static let namedRegions = 50

    /// The whole document.
    mutating func writeDocument() throws {
        let legend = legendItems()
        let width = frame.width + style.legendWidth
        let height = max(frame.height, legendHeight(legend))
        if format == .html { htmlHead() } else { text("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n") }
        text("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\""); number(width)
        text("\" height=\""); number(height)
        text("\" viewBox=\"0 0 "); number(width); text(" "); number(height)
        text("\" data-projection=\"EPSG:3857\" data-west=\""); exact(frame.west)
        text("\" data-scale=\""); exact(frame.scale)
        text("\" data-origin-x=\""); exact(frame.originX)
        text("\" data-origin-y=\""); exact(frame.originY)
        text("\" data-map-width=\""); number(frame.width)
        text("\" data-map-height=\""); number(frame.height)
        text("\">\n<title>"); escaped(style.title); text("</title>\n")
        styleSheet()
        text("<defs><clipPath id=\"gm-clip\"><rect width=\""); number(frame.width)
        text("\" height=\""); number(frame.height); text("\"/></clipPath></defs>\n")
        text("<rect id=\"background\" class=\"bg\" width=\""); number(frame.width)
        text("\" height=\""); number(height); text("\"/>\n")
        text("<g id=\"map\" clip-path=\"url(#gm-clip)\">\n")
        graticule()
        regions()
        try flushIfFull()
        try tracks()
        regionLabels()
        try events()
        text("</g>\n")
        writeLegend(height: height)
        text("</svg>\n")
        if format == .html { htmlFoot() }
        try output(out)
        out.removeAll()
    }

    // MARK: Output primitives

    /// Hands the buffer on when it is large.
    mutating func flushIfFull() throws {
        if out.count >= 1 << 16 {
            try output(out)
            out.removeAll(keepingCapacity: true)
        }
    }

    mutating func text(_ string: String) {
        out += string.utf8
    }

    /// Text escaped for XML content and attribute values; what XML 1.0 does
    /// not allow (controls other than tab and newline, U+FFFE, U+FFFF) becomes
    /// U+FFFD. Works on the UTF-8 bytes: every byte of a multi-byte character is
    /// 0x80 or more, so only ASCII needs looking at.
    mutating func escaped(_ string: String) {
        let bytes = Array(string.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "&"): text("&amp;")
            case UInt8(ascii: "<"): text("&lt;")
            case UInt8(ascii: ">"): text("&gt;")
            case UInt8(ascii: "\""): text("&quot;")
            case UInt8(ascii: "'"): text("&#39;")
            case 0x09, 0x0A: out.append(byte)
            case 0..<0x20: text("\u{FFFD}")
            case 0xEF where index + 2 < bytes.count && bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE:
                text("\u{FFFD}")
                index += 2
            default: out.append(byte)
            }
            index += 1
        }
    }

    /// `string` escaped as `escaped` writes it, as bytes to keep.
    mutating func escapedBytes(_ string: String) -> [UInt8] {
        let start = out.count
        escaped(string)
        defer { out.removeSubrange(start...) }
        return Array(out[start...])
    }

    /// A whole number in decimal.
    mutating func integer(_ value: Int) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = out.count
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        out[start...].reverse()
    }

    /// A pixel value to a tenth, without a trailing ".0" (`12.3`, `-4`, `0`);
    /// kept within ±10⁹, and 0 for a NaN (none is expected: never a trap).
    mutating func number(_ value: Double) {
        let tenths = Int((value.isNaN ? 0 : min(max(value, -1e9), 1e9) * 10).rounded())
        if tenths < 0 && tenths > -10 { out.append(UInt8(ascii: "-")) }
        integer(tenths / 10)
        let fraction = abs(tenths % 10)
        if fraction != 0 {
            out.append(UInt8(ascii: "."))
            out.append(UInt8(ascii: "0") + UInt8(fraction))
        }
    }

    /// A number as Swift prints it (shortest exact form): for the frame's attributes.
    mutating func exact(_ value: Double) {
        text("\(value)")
    }

    // MARK: Style

    private mutating func styleSheet() {
        let trackWidth: String, trackOpacity: String
        switch report.trackDevices {
        case ...map.sampling.namedDevices: (trackWidth, trackOpacity) = ("2.5", "0.9")
        case ...50: (trackWidth, trackOpacity) = ("1.2", "0.7")
        default: (trackWidth, trackOpacity) = ("0.8", "0.45")
        }
        text("<style>\n")
        text(".bg{fill:\(style.background)}.panel{fill:\(style.panel);stroke:#ccc}\n")
        text(".grid{fill:none;stroke:\(style.graticule);stroke-width:1}")
        text(".gridlabel{font-family:sans-serif;font-size:10px;fill:\(style.graticuleText)}\n")
        text(".region{fill:\(style.regionFill);fill-opacity:\(style.regionOpacity);fill-rule:evenodd;")
        text("stroke:\(style.regionStroke);stroke-width:1.2;stroke-linejoin:round}")
        text(".region.unstroked{stroke:none}.edge{fill:none;stroke:\(style.regionStroke);stroke-width:1.2}\n")
        text(".label{font-family:sans-serif;font-size:11px;font-weight:bold;fill:\(style.regionLabel);")
        text("stroke:#fff;stroke-width:3;stroke-linejoin:round;paint-order:stroke;text-anchor:middle}\n")
        text(".track{fill:none;stroke-linecap:round;stroke-linejoin:round;")
        text("stroke-width:\(trackWidth);stroke-opacity:\(trackOpacity)}\n")
        for (index, colour) in style.trackColours.enumerated() { text(".c\(index){stroke:\(colour)}") }
        text("\n.ev{stroke:#fff;stroke-width:1.5}")
        for kind in RegionEvent.Kind.allCases { text(".\(kind.rawValue){fill:\(style.colour(of: kind))}") }
        text("\n.legend text{font-family:sans-serif;font-size:12px;fill:#222}.legend .title{font-size:15px;font-weight:bold}")
        text(".legend .heading{font-weight:bold}.legend .small{font-size:10.5px;fill:#555}\n")
        text("")
        text("</style>\n")
    }

    // MARK: HTML

    private mutating func htmlHead() {
        text("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
        escaped(style.title)
        text("</title>\n<style>\nhtml,body{margin:0;background:#fff}\nsvg{display:block;max-width:100%;height:auto}\n")
        text("#tip{position:fixed;display:none;pointer-events:none;background:rgba(255,255,255,.95);border:1px solid #888;")
        text("padding:4px 7px;font:12px sans-serif;white-space:pre-line;box-shadow:0 1px 4px rgba(0,0,0,.25)}\n")
        text("</style>\n</head>\n<body>\n")
    }

    /// The hover details: each element's `<title>` moves into `data-tip` (so the
    /// browser's own slow tooltip does not double it) and shows at once beside
    /// the pointer. Inline, fetching nothing.
    private mutating func htmlFoot() {
        text("""
            <div id="tip"></div>
            <script>
            (function () {
              var tip = document.getElementById("tip");
              document.querySelectorAll("svg title").forEach(function (title) {
                if (title.parentNode.tagName === "svg") return;
                title.parentNode.setAttribute("data-tip", title.textContent);
                title.remove();
              });
              document.addEventListener("mousemove", function (event) {
                var target = event.target.closest ? event.target.closest("[data-tip]") : null;
                if (!target) { tip.style.display = "none"; return; }
                tip.textContent = target.getAttribute("data-tip");
                tip.style.left = (event.clientX + 14) + "px";
                tip.style.top = (event.clientY + 14) + "px";
                tip.style.display = "block";
              });
            })();
            </script>
            </body>
            </html>

            """)
    }
}
