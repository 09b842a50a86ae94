/// Where a map looks and how big it is: a window of Web Mercator fitted to the
/// data, and the transform from longitude/latitude to pixels of the map area
/// (x to the right, y down, (0, 0) its top-left corner).
///
/// The window's `west` edge is where the map is cut: a longitude west of it is
/// drawn 360° further east, so that data across the antimeridian lies together.
public struct MapFrame: Sendable, Equatable {
    /// Longitudes below this one are drawn 360° further east (−180…180).
    public var west: Double
    /// Pixels per projected metre.
    public var scale: Double
    /// The projected x and y (metres) of the map area's top-left corner.
    public var originX: Double, originY: Double
    /// The map area's size in pixels.
    public var width: Double, height: Double

    /// Creates a frame from its parts.
    public init(west: Double, scale: Double, originX: Double, originY: Double, width: Double, height: Double) {
        self.west = west
        self.scale = scale
        self.originX = originX
        self.originY = originY
        self.width = width
        self.height = height
    }

    /// A longitude moved into the window [west, west + 360).
    @inline(__always)
    package func windowed(longitude: Double) -> Double {
        longitude < west ? longitude + 360 : longitude
    }

    /// The pixel of a longitude taken as given (not moved into the window).
    @inline(__always)
    package func pixelX(unwrappedLongitude longitude: Double) -> Double {
        (WebMercator.x(longitude: longitude) - originX) * scale
    }

    /// The pixel row of a latitude (clamped near the poles, as web maps do).
    @inline(__always)
    package func pixelY(latitude: Double) -> Double {
        (originY - WebMercator.y(latitude: latitude)) * scale
    }

    /// The pixel of a position, its longitude moved into the window.
    package func pixel(of coordinate: Coordinate) -> (x: Double, y: Double) {
        (pixelX(unwrappedLongitude: windowed(longitude: coordinate.longitude)), pixelY(latitude: coordinate.latitude))
    }

    /// The longitudes at the left and right edges of the map area (the right one
    /// may be beyond 180).
    package var longitudeSpan: ClosedRange<Double> {
        WebMercator.longitude(x: originX)...WebMercator.longitude(x: originX + width / scale)
    }

    /// The latitudes at the bottom and top edges of the map area.
    package var latitudeSpan: ClosedRange<Double> {
        WebMercator.latitude(y: originY - height / scale)...WebMercator.latitude(y: originY)
    }

    /// The latitude at the middle of the map area, where the scale bar is true.
    package var centreLatitude: Double {
        WebMercator.latitude(y: originY - height / scale / 2)
    }

    /// Ground metres per pixel at a latitude (the monitor's sphere).
    package func metresPerPixel(atLatitude latitude: Double) -> Double {
        WebMercator.groundMetresPerProjectedMetre(atLatitude: latitude) / scale
    }
}

extension MapFrame {
    /// Fits a frame to the data: the longitude window and latitudes given, padded
    /// by `margin` pixels, within `maxWidth` × `maxHeight`, and at least
    /// `minWidth` × `minHeight` (a narrow extent keeps its scale and shows more
    /// around it). A span shorter than `minimumSpan` ground metres (one fix, a
    /// parked device) is widened to it, so that the map never zooms in past
    /// street level.
    package static func fitted(west: Double, east: Double, south: Double, north: Double,
                              maxWidth: Double, maxHeight: Double, minWidth: Double, minHeight: Double,
                              margin: Double, minimumSpan: Double = 500) -> MapFrame {
        var x0 = WebMercator.x(longitude: west), x1 = WebMercator.x(longitude: east)
        var y0 = WebMercator.y(latitude: south), y1 = WebMercator.y(latitude: north)
        let middle = WebMercator.latitude(y: (y0 + y1) / 2)
        let span = minimumSpan / WebMercator.groundMetresPerProjectedMetre(atLatitude: middle)
        if x1 - x0 < span { let grow = (span - (x1 - x0)) / 2; x0 -= grow; x1 += grow }
        if y1 - y0 < span { let grow = (span - (y1 - y0)) / 2; y0 -= grow; y1 += grow }
        let innerWidth = maxWidth - 2 * margin, innerHeight = maxHeight - 2 * margin
        let scale = min(innerWidth / (x1 - x0), innerHeight / (y1 - y0))
        // Whole pixels, never past the largest size (rounding may push a side over).
        let width = max(min(((x1 - x0) * scale + 2 * margin).rounded(.up), maxWidth), minWidth)
        let height = max(min(((y1 - y0) * scale + 2 * margin).rounded(.up), maxHeight), minHeight)
        let centreX = (x0 + x1) / 2, centreY = (y0 + y1) / 2
        return MapFrame(west: west, scale: scale, originX: centreX - width / 2 / scale,
                        originY: centreY + height / 2 / scale, width: width, height: height)
    }
}
