/// A region written back out: GeoJSON geometry text and its rings.
extension Region {
    /// The polygons as a GeoJSON MultiPolygon (RFC 7946 §3.1.7), `nil` for a circle.
    public var geoJSONGeometry: String? {
        guard case .polygons(let polygons) = shape else { return nil }
        let parts = polygons.map { polygon in
            "[" + polygon.rings.map { ring in
                "[" + ring.map { "[\($0.x),\($0.y)]" }.joined(separator: ",") + "]"
            }.joined(separator: ",") + "]"
        }
        return #"{"type":"MultiPolygon","coordinates":["# + parts.joined(separator: ",") + "]}"
    }

    /// Every ring of every polygon (shells and holes), closed; empty for a circle.
    public var rings: [[Coordinate]] {
        guard case .polygons(let polygons) = shape else { return [] }
        return polygons.flatMap { $0.rings.map { $0.map { Coordinate(latitude: $0.y, longitude: $0.x) } } }
    }
}
