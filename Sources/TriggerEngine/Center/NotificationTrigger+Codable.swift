import Foundation

/// The JSON forms of the command-line contract (`trigger-eval simulate`): one key naming the kind.
extension NotificationTrigger: Codable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private static let kinds = ["calendar", "timeInterval", "location", "recurrence", "push"]

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let keys = container.allKeys.map(\.stringValue)
        guard keys.count == 1, let kind = keys.first, Self.kinds.contains(kind) else {
            throw DataError("a trigger is an object with one key, one of \(Self.kinds.joined(separator: ", ")) (got \(keys.isEmpty ? "none" : keys.sorted().joined(separator: ", ")))")
        }
        let body = try container.nestedContainer(keyedBy: Key.self, forKey: Key(kind))
        try Self.checkKeys(body, kind: kind)
        switch kind {
        case "calendar":
            let matching = try body.decode([String: Int].self, forKey: Key("dateMatching"))
            let components = try FireDateQuery.dateComponents(matching.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
            let repeats = try body.decodeIfPresent(Bool.self, forKey: Key("repeats")) ?? false
            let zone: TriggerTimeZone = try body.decodeIfPresent(String.self, forKey: Key("timeZone"))
                .map { name throws(DataError) in .fixed(try ZoneRules.named(name)) } ?? .floating
            self = .calendar(try CalendarTrigger(dateMatching: components, repeats: repeats, timeZone: zone))
        case "timeInterval":
            self = .timeInterval(try TimeIntervalTrigger(
                timeInterval: try body.decode(Double.self, forKey: Key("interval")),
                repeats: try body.decodeIfPresent(Bool.self, forKey: Key("repeats")) ?? false))
        case "location":
            let region = try body.decode(RegionJSON.self, forKey: Key("region")).region
            self = .location(LocationTrigger(
                region: region,
                notifyOnEntry: try body.decodeIfPresent(Bool.self, forKey: Key("notifyOnEntry")) ?? true,
                notifyOnExit: try body.decodeIfPresent(Bool.self, forKey: Key("notifyOnExit")) ?? true,
                repeats: try body.decodeIfPresent(Bool.self, forKey: Key("repeats")) ?? false))
        case "recurrence":
            let source = try container.decode(RecurrenceTriggerSource.self, forKey: Key(kind))
            self = .recurrence(try source.trigger(), source: source)
        default:
            self = .push
        }
    }

    /// Unknown keys inside a trigger are errors, not silently ignored typos.
    private static func checkKeys(_ body: KeyedDecodingContainer<Key>, kind: String) throws {
        let allowed: Set<String> = switch kind {
        case "calendar": ["dateMatching", "repeats", "timeZone"]
        case "timeInterval": ["interval", "repeats"]
        case "location": ["region", "notifyOnEntry", "notifyOnExit", "repeats"]
        case "recurrence": ["rrule", "dtstart", "tz", "exdates", "rdates"]
        default: []
        }
        if let unknown = body.allKeys.map(\.stringValue).sorted().first(where: { !allowed.contains($0) }) {
            throw DataError("\(kind) trigger: unknown key '\(unknown)' (expected \(allowed.sorted().joined(separator: ", ")))")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .calendar(let trigger):
            var body = container.nestedContainer(keyedBy: Key.self, forKey: Key(kind))
            var matching: [String: Int] = [:]
            for unit in CalendarUnit.allCases {
                if let value = trigger.dateComponents.value(for: unit.component) { matching[unit.name] = value }
            }
            try body.encode(matching, forKey: Key("dateMatching"))
            try body.encode(trigger.repeats, forKey: Key("repeats"))
            if case .fixed(let rules) = trigger.timeZone { try body.encode(rules.identifier, forKey: Key("timeZone")) }
        case .timeInterval(let trigger):
            var body = container.nestedContainer(keyedBy: Key.self, forKey: Key(kind))
            try body.encode(trigger.timeInterval, forKey: Key("interval"))
            try body.encode(trigger.repeats, forKey: Key("repeats"))
        case .location(let trigger):
            var body = container.nestedContainer(keyedBy: Key.self, forKey: Key(kind))
            try body.encode(RegionJSON(region: trigger.region), forKey: Key("region"))
            try body.encode(trigger.notifyOnEntry, forKey: Key("notifyOnEntry"))
            try body.encode(trigger.notifyOnExit, forKey: Key("notifyOnExit"))
            try body.encode(trigger.repeats, forKey: Key("repeats"))
        case .recurrence(_, let source):
            try container.encode(source, forKey: Key(kind))
        case .push:
            _ = container.nestedContainer(keyedBy: Key.self, forKey: Key(kind))
        }
    }
}

/// A location trigger's region in JSON: `{"center":{"lat":…,"lon":…},"radius":…}`
/// or a GeoJSON Polygon/MultiPolygon geometry.
struct RegionJSON: Codable {
    var region: Region

    init(region: Region) { self.region = region }

    private struct Center: Codable { var lat: Double; var lon: Double }
    private enum CircleKeys: String, CodingKey { case center, radius }

    init(from decoder: any Decoder) throws {
        let circle = try decoder.container(keyedBy: CircleKeys.self)
        if circle.contains(.center) {
            let center = try circle.decode(Center.self, forKey: .center)
            let radius = try circle.decode(Double.self, forKey: .radius)
            let coordinate = Coordinate(latitude: center.lat, longitude: center.lon)
            guard coordinate.isValid else { throw DataError("region center \(center.lat),\(center.lon) is not a valid latitude/longitude") }
            region = try Region.circle(center: coordinate, radius: radius)
            return
        }
        // A GeoJSON geometry: re-serialise the decoded value and let the Geo reader check it.
        let value = try UserInfoValue(from: decoder)
        let text = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        region = try Region(geoJSON: text)
    }

    func encode(to encoder: any Encoder) throws {
        if let (center, radius) = region.circle {
            var c = encoder.container(keyedBy: CircleKeys.self)
            try c.encode(Center(lat: center.latitude, lon: center.longitude), forKey: .center)
            try c.encode(radius, forKey: .radius)
        } else if let text = region.geoJSONGeometry {
            try JSONDecoder().decode(UserInfoValue.self, from: Data(text.utf8)).encode(to: encoder)
        }
    }
}
