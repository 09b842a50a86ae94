import Foundation

/// What a map needs besides its data: a graticule, a scale bar and a north arrow
/// (these two in the legend panel, where they never cover the data).
extension SVGMapWriter {
    /// Round steps of a graticule, in degrees.
    private static let gridSteps: [Double] = [0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05,
                                              0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 45, 90]

    /// The smallest round step that draws at most six lines across `span` degrees.
    static func gridStep(forSpan span: Double) -> Double {
        gridSteps.first { span / $0 <= 6 } ?? 90
    }

    /// Meridians and parallels at round steps, labelled along the top and left
    /// edges (longitudes beyond ±180 named as the meridian they are, 175°W).
    mutating func graticule() {
        let longitudes = frame.longitudeSpan, latitudes = frame.latitudeSpan
        let lonStep = Self.gridStep(forSpan: longitudes.upperBound - longitudes.lowerBound)
        let latStep = Self.gridStep(forSpan: latitudes.upperBound - latitudes.lowerBound)
        var meridians: [Double] = [], parallels: [Double] = []
        var value = (longitudes.lowerBound / lonStep).rounded(.up) * lonStep
        while value <= longitudes.upperBound && meridians.count < 50 { meridians.append(value); value += lonStep }
        value = (latitudes.lowerBound / latStep).rounded(.up) * latStep
        while value <= latitudes.upperBound && parallels.count < 50 {
            if abs(value) < WebMercator.maxLatitude { parallels.append(value) }
            value += latStep
        }
        text("<g id=\"graticule\"><path class=\"grid\" d=\"")
        for longitude in meridians {
            text("M"); number(frame.pixelX(unwrappedLongitude: longitude)); text(" 0V"); number(frame.height)
        }
        for latitude in parallels {
            text("M0 "); number(frame.pixelY(latitude: latitude)); text("H"); number(frame.width)
        }
        text("\"/>\n")
        for longitude in meridians {
            let x = frame.pixelX(unwrappedLongitude: longitude)
            guard x > 4, x < frame.width - 60 else { continue }
            text("<text class=\"gridlabel\" x=\""); number(x + 3); text("\" y=\"11\">")
            text(Self.degrees(longitude, step: lonStep, positive: "E", negative: "W")); text("</text>\n")
        }
        for latitude in parallels {
            let y = frame.pixelY(latitude: latitude)
            guard y > 24, y < frame.height - 56 else { continue }
            text("<text class=\"gridlabel\" x=\"3\" y=\""); number(y - 3); text("\">")
            text(Self.degrees(latitude, step: latStep, positive: "N", negative: "S")); text("</text>\n")
        }
        text("</g>\n")
    }

    /// "2.95°W", "53.4°N", "180°": as many decimals as the step needs; a
    /// longitude is first brought into −180…180.
    static func degrees(_ value: Double, step: Double, positive: String, negative: String) -> String {
        var value = value
        while value > 180 { value -= 360 }
        while value < -180 { value += 360 }
        let decimals = max(0, Int((-log10(step)).rounded(.up)))
        let text = String(format: "%.\(decimals)f", abs(value))
        if Double(text) == 0 || abs(value) == 180 { return text + "°" }
        return text + "°" + (value > 0 ? positive : negative)
    }

    /// A bar of a round length (1, 2 or 5 × 10ⁿ metres) about 120 pixels long,
    /// at (x, y) (its label's baseline), true at the map's middle latitude
    /// (Mercator's scale grows away from the equator, so the bar names the
    /// latitude it holds at).
    mutating func scaleBar(x: Double, y: Double) {
        let latitude = frame.centreLatitude
        let metresPerPixel = frame.metresPerPixel(atLatitude: latitude)
        let (metres, pixels) = Self.scaleBarLength(metresPerPixel: metresPerPixel)
        let label = (metres >= 1000 ? "\(Self.trimmed(metres / 1000)) km" : "\(Self.trimmed(metres)) m")
            + " at " + Self.degrees(latitude, step: 0.1, positive: "N", negative: "S")
        text("<g id=\"scale-bar\" data-metres=\"\(Self.trimmed(metres))\" data-pixels=\"\(pixels)\">")
        text("<text x=\""); number(x); text("\" y=\""); number(y); text("\">"); text(label); text("</text>")
        text("<rect x=\""); number(x); text("\" y=\""); number(y + 7); text("\" width=\""); number(pixels / 2)
        text("\" height=\"6\" fill=\"#222\" stroke=\"#222\"/>")
        text("<rect x=\""); number(x + pixels / 2); text("\" y=\""); number(y + 7); text("\" width=\"")
        number(pixels / 2); text("\" height=\"6\" fill=\"#fff\" stroke=\"#222\"/></g>\n")
    }

    /// The round length and its pixels for a bar of about 120 pixels.
    static func scaleBarLength(metresPerPixel: Double) -> (metres: Double, pixels: Double) {
        let target = 120 * metresPerPixel
        let power = pow(10, (log10(target)).rounded(.down))
        let metres = [5.0, 2, 1].map { $0 * power }.first { $0 <= target } ?? power
        return (metres, metres / metresPerPixel)
    }

    private static func trimmed(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// An arrow pointing up with an N above it, its tip at (x, y): north is up
    /// everywhere in Mercator.
    mutating func northArrow(x: Double, y: Double) {
        text("<g id=\"north-arrow\"><text x=\""); number(x); text("\" y=\""); number(y - 3)
        text("\" text-anchor=\"middle\" font-weight=\"bold\">N</text>")
        text("<path d=\"M"); number(x); text(" "); number(y)
        text("L"); number(x + 7); text(" "); number(y + 24); text("L"); number(x); text(" "); number(y + 18)
        text("Z\" fill=\"#fff\" stroke=\"#222\"/>")
        text("<path d=\"M"); number(x); text(" "); number(y)
        text("L"); number(x - 7); text(" "); number(y + 24); text("L"); number(x); text(" "); number(y + 18)
        text("Z\" fill=\"#222\" stroke=\"#222\"/></g>\n")
    }
}
