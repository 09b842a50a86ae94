/// The extent of what a map shows, and the frame fitted to it.
extension GeofenceMap {
    /// Adds a region's longitudes and latitudes to the extent.
    func addToExtent(_ region: Region) {
        switch region.shape {
        case .circle(let center, let radius):
            let shape = CircleShape(latitude: center.latitude, longitude: center.longitude, radius: radius)
            for envelope in shape.envelopes {
                if envelope.maxX - envelope.minX >= 360 {
                    coverage.addAll()
                } else {
                    coverage.addEdge(from: envelope.minX, to: envelope.maxX)
                }
                south = min(south, max(envelope.minY, -90))
                north = max(north, min(envelope.maxY, 90))
            }
        case .polygons(let polygons):
            for polygon in polygons {
                for ring in polygon.rings {
                    for (a, b) in zip(ring, ring.dropFirst()) {
                        coverage.addEdge(from: a.x, to: b.x)
                        south = min(south, a.y)
                        north = max(north, a.y)
                    }
                }
            }
        }
    }

    /// The frame fitted to the regions and every fix seen: cut in the widest
    /// stretch of longitude nothing covers, latitudes clamped like web maps. With
    /// nothing at all to show, the world between 60° S and 75° N.
    var frame: MapFrame {
        let window = coverage.window() ?? (west: -180, east: 180)
        let hasLatitudes = south <= north
        return MapFrame.fitted(west: window.west, east: window.east,
                               south: hasLatitudes ? south : -60, north: hasLatitudes ? north : 75,
                               maxWidth: style.maxWidth, maxHeight: style.maxHeight,
                               minWidth: style.minWidth, minHeight: style.minHeight, margin: style.margin)
    }
}
