import Foundation

/// Regions from GeoJSON (RFC 7946): a Polygon or MultiPolygon geometry, a Feature
/// holding one, or a Point feature with `properties.radius` for a circle.
extension Region {
    /// Parses a GeoJSON Polygon or MultiPolygon (or a Feature with one).
    ///
    /// - Parameters:
    ///   - geoJSON: the GeoJSON text.
    ///   - repair: close unclosed rings and make invalid polygons valid
    ///     with GEOS's MakeValid instead of refusing them.
    /// - Throws: `InputError.data` saying what is wrong (malformed JSON, wrong
    ///   type, unclosed ring, self-intersection, …).
    public init(geoJSON: String, repair: Bool = false) throws(InputError) {
        self = try InputError.reading { try Region(readingGeoJSON: geoJSON, repair: repair) }
    }

    /// `init(geoJSON:repair:)` with the reader's own errors.
    package init(readingGeoJSON geoJSON: String, repair: Bool) throws {
        let object = try GeoJSON.object(parsing: Data(geoJSON.utf8), what: "GeoJSON")
        let geometry = object["type"]?.text == "Feature" ? object["geometry"] : .object(object)
        guard case .object(let geometry)? = geometry else { throw DataError("the GeoJSON Feature has no geometry") }
        self = try GeoJSON.region(geometry: geometry, properties: object["properties"]?.members ?? [:],
                                  label: "GeoJSON geometry", repair: repair, in: GEOSContext())
    }
}

/// The JSON side of GeoJSON, the general path: any JSON, decoded by `JSONDecoder`
/// into plain values, then positions and rings.
///
/// Not `JSONSerialization`: on Linux it rounds numbers of 17 significant digits
/// a few units in the last place away from the nearest double (2.2594904168901278
/// reads as 2.2594904168901286), where `JSONDecoder`, `strtod`, Python and GEOS's
/// own reader all give the nearest; full-precision GIS exports hold such numbers.
enum GeoJSON {
    typealias Value = UserInfoValue

    static func object(parsing data: Data, what: String) throws(DataError) -> [String: Value] {
        let parsed: Value
        do {
            parsed = try JSONDecoder().decode(Value.self, from: data)
        } catch {
            throw DataError("\(what) is not valid JSON: \(syntaxError(in: data))")
        }
        guard case .object(let object) = parsed else { throw DataError("\(what) must be a JSON object") }
        return object
    }

    /// Why the bytes are not JSON, in `JSONSerialization`'s words (which name the
    /// line and column; `JSONDecoder`'s error for a generic value does not).
    private static func syntaxError(in data: Data) -> String {
        do {
            _ = try JSONSerialization.jsonObject(with: data)
            return "a number is out of range"
        } catch {
            return (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "malformed JSON"
        }
    }

    /// The region of one geometry object (with the feature's properties for circles).
    static func region(geometry: [String: Value], properties: [String: Value], label: String, repair: Bool,
                       in context: GEOSContext) throws(DataError) -> Region {
        let type = geometry["type"]?.text ?? "(none)"
        let coordinates = geometry["coordinates"]
        switch type {
        case "Point":
            let radius = number(properties["radius"])
            return try circle(center: try position(coordinates, label: label), radius: radius, label: label)
        case "Polygon":
            return try Region.polygons([try polygon(coordinates, label: label)], label: label, repair: repair, in: context)
        case "MultiPolygon":
            guard case .array(let list)? = coordinates, !list.isEmpty else {
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

    static func number(_ value: Value?) -> Double? {
        if case .number(let number)? = value { return number }
        return nil
    }

    static func boolean(_ value: Value?) -> Bool? {
        if case .bool(let flag)? = value { return flag }
        return nil
    }

    private static func position(_ value: Value?, label: String) throws(DataError) -> XY {
        guard case .array(let pair)? = value, pair.count >= 2, let x = number(pair[0]), let y = number(pair[1]) else {
            throw DataError("\(label): a position must be an array [longitude, latitude]")
        }
        return XY(x, y)
    }

    private static func polygon(_ value: Value?, label: String) throws(DataError) -> [[XY]] {
        guard case .array(let rings)? = value, !rings.isEmpty else {
            throw DataError("\(label): Polygon coordinates must be a non-empty array of rings")
        }
        var result: [[XY]] = []
        for ring in rings {
            guard case .array(let positions) = ring else { throw DataError("\(label): a ring must be an array of positions") }
            var points: [XY] = []
            points.reserveCapacity(positions.count)
            for item in positions { points.append(try position(item, label: label)) }
            result.append(points)
        }
        return result
    }
}

extension UserInfoValue {
    /// The string, when this is one.
    var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The members, when this is an object.
    var members: [String: UserInfoValue]? {
        if case .object(let members) = self { return members }
        return nil
    }
}
