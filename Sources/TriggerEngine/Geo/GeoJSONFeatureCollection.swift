import Foundation

/// A GeoJSON FeatureCollection decoded by `JSONDecoder` straight into typed
/// coordinates: the fast path of `MonitoredRegion.featureCollection(_:repair:)`.
///
/// `JSONSerialization` makes an `NSNumber` of every coordinate and an `NSArray`
/// of every position; on 10,000 polygons that was 2–3 s, most of the time a
/// geofence run took. This type accepts only the plain shape: Features with a
/// Point, Polygon or MultiPolygon of numeric positions, and the properties the
/// monitor reads (`id`, `name`, `radius`, `notifyOnEntry`, `notifyOnExit`,
/// `repeats`) of the types it expects. Anything else fails to decode, and the
/// caller takes the general path, which accepts what it accepts and says what is
/// wrong: this is a faster route to the same answers, not a second set of rules.
struct GeoJSONFeatureCollection: Decodable {
    var features: [Feature]

    /// One feature: its identifiers, geometry and the properties the monitor reads.
    struct Feature: Decodable {
        var id: Scalar?
        var geometry: Geometry
        var properties: Properties

        private enum Keys: String, CodingKey { case type, id, geometry, properties }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            try requireType("Feature", in: container, key: .type)
            id = try container.decodeIfPresent(Scalar.self, forKey: .id)
            geometry = try container.decode(Geometry.self, forKey: .geometry)
            properties = try container.decodeIfPresent(Properties.self, forKey: .properties) ?? Properties()
        }
    }

    /// An identifier: a string or a number (`true`/`false` decline).
    enum Scalar: Decodable {
        case text(String)
        case number(Double)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) { self = .text(text) } else { self = .number(try container.decode(Double.self)) }
        }
    }

    /// The properties the monitor reads; others are not decoded at all.
    struct Properties: Decodable {
        var id: Scalar?
        var name: Scalar?
        var radius: Double?
        var notifyOnEntry: Bool?
        var notifyOnExit: Bool?
        var repeats: Bool?

        init() {}
    }

    /// A region's geometry, positions as (longitude, latitude).
    enum Geometry: Decodable {
        case point(XY)
        case polygon([[XY]])
        case multiPolygon([[[XY]]])

        private enum Keys: String, CodingKey { case type, coordinates }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            switch try container.decode(String.self, forKey: .type) {
            case "Point":
                self = .point(try container.decode(Position.self, forKey: .coordinates).xy)
            case "Polygon":
                let rings = try container.decode([[Position]].self, forKey: .coordinates)
                guard !rings.isEmpty else { throw declined(container, "empty Polygon") }
                self = .polygon(rings.map { $0.map(\.xy) })
            case "MultiPolygon":
                let polygons = try container.decode([[[Position]]].self, forKey: .coordinates)
                guard !polygons.isEmpty, !polygons.contains(where: \.isEmpty) else { throw declined(container, "empty MultiPolygon") }
                self = .multiPolygon(polygons.map { $0.map { $0.map(\.xy) } })
            default:
                throw declined(container, "not a region geometry")
            }
        }
    }

    /// `[longitude, latitude]`, with an optional numeric altitude after them.
    struct Position: Decodable {
        var xy: XY

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            xy = XY(try container.decode(Double.self), try container.decode(Double.self))
            while !container.isAtEnd { _ = try container.decode(Double.self) }
        }
    }

    private enum Keys: String, CodingKey { case type, features }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        try requireType("FeatureCollection", in: container, key: .type)
        features = try container.decode([Feature].self, forKey: .features)
    }
}

private func requireType<Key: CodingKey>(_ type: String, in container: KeyedDecodingContainer<Key>, key: Key) throws {
    guard try container.decode(String.self, forKey: key) == type else { throw declined(container, "not a \(type)") }
}

private func declined<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ reason: String) -> DecodingError {
    DecodingError.dataCorrupted(DecodingError.Context(codingPath: container.codingPath, debugDescription: reason))
}
