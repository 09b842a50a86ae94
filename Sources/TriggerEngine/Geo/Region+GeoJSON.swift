import Foundation

/// Regions from GeoJSON (RFC 7946): a Polygon or MultiPolygon geometry, a Feature
/// holding one, or a Point feature with `properties.radius` for a circle.
extension Region {
    /// Parses a GeoJSON Polygon or MultiPolygon (or a Feature with one).
    ///
    /// - Parameter repair: close unclosed rings and make invalid polygons valid
    ///   with GEOS's MakeValid instead of refusing them.
    /// - Throws: `DataError` saying what is wrong (malformed JSON, wrong type,
    ///   unclosed ring, self-intersection, …).
    public init(geoJSON: String, repair: Bool = false) throws {
        let object = try GeoJSON.object(parsing: Data(geoJSON.utf8), what: "GeoJSON")
        let geometry = (object["type"] as? String) == "Feature" ? object["geometry"] : object
        guard let geometry = geometry as? [String: Any] else { throw DataError("the GeoJSON Feature has no geometry") }
        self = try GeoJSON.region(geometry: geometry, properties: object["properties"] as? [String: Any] ?? [:],
                                  label: "GeoJSON geometry", repair: repair, in: GEOSContext())
    }
}

/// The JSON side of GeoJSON: objects from `JSONSerialization`, positions and rings.
enum GeoJSON {
    static func object(parsing data: Data, what: String) throws(DataError) -> [String: Any] {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data)
        } catch {
            let reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "malformed JSON"
            throw DataError("\(what) is not valid JSON: \(reason)")
        }
        guard let object = parsed as? [String: Any] else { throw DataError("\(what) must be a JSON object") }
        return object
    }

    /// The region of one geometry object (with the feature's properties for circles).
    static func region(geometry: [String: Any], properties: [String: Any], label: String, repair: Bool,
                       in context: GEOSContext) throws(DataError) -> Region {
        let type = geometry["type"] as? String ?? "(none)"
        let coordinates = geometry["coordinates"]
        switch type {
        case "Point":
            let radius = number(properties["radius"])
            return try circle(center: try position(coordinates, label: label), radius: radius, label: label)
        case "Polygon":
            return try Region.polygons([try polygon(coordinates, label: label)], label: label, repair: repair, in: context)
        case "MultiPolygon":
            guard let list = coordinates as? [Any], !list.isEmpty else {
                throw DataError("\(label): MultiPolygon coordinates must be a non-empty array of polygons")
            }
            var polygons: [[[XY]]] = []
            for item in list { polygons.append(try polygon(item, label: label)) }
            return try Region.polygons(polygons, label: label, repair: repair, in: context)
        default:
            throw DataError("\(label): geometry type \(type) is not a region; use Polygon, MultiPolygon, or a Point with properties.radius")
        }
    }

    /// The circular region of a Point feature with `properties.radius` (metres).
    static func circle(center: XY, radius: Double?, label: String) throws(DataError) -> Region {
        guard let radius else {
            throw DataError("\(label): a Point needs a numeric properties.radius (metres) to be a circular region")
        }
        do {
            return try Region.circle(center: Coordinate(latitude: center.y, longitude: center.x), radius: radius)
        } catch {
            throw DataError("\(label): \(error.message)")
        }
    }

    static func number(_ value: Any?) -> Double? {
        guard let number = value as? NSNumber, !isBoolean(number) else { return nil }
        return number.doubleValue
    }

    /// `true`/`false` as `JSONSerialization` returns them: an `NSNumber` of
    /// Objective-C type `c` (a plain `as? Bool` also accepts the numbers 0 and 1).
    static func boolean(_ value: Any?) -> Bool? {
        guard let number = value as? NSNumber, isBoolean(number) else { return nil }
        return number.boolValue
    }

    private static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }

    private static func position(_ value: Any?, label: String) throws(DataError) -> XY {
        guard let pair = value as? [Any], pair.count >= 2, let x = number(pair[0]), let y = number(pair[1]) else {
            throw DataError("\(label): a position must be an array [longitude, latitude]")
        }
        return XY(x, y)
    }

    private static func polygon(_ value: Any?, label: String) throws(DataError) -> [[XY]] {
        guard let rings = value as? [Any], !rings.isEmpty else {
            throw DataError("\(label): Polygon coordinates must be a non-empty array of rings")
        }
        var result: [[XY]] = []
        for ring in rings {
            guard let positions = ring as? [Any] else { throw DataError("\(label): a ring must be an array of positions") }
            var points: [XY] = []
            points.reserveCapacity(positions.count)
            for item in positions { points.append(try position(item, label: label)) }
            result.append(points)
        }
        return result
    }
}
