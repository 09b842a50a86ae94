import Foundation

/// The JSON forms of the command-line contract (`trigger-eval simulate`): one key naming the kind.
extension NotificationTrigger: Codable {
    private typealias Key = NamedKey

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
            let components = try CalendarTrigger.dateComponents(named: matching.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
            let repeats = try body.decodeIfPresent(Bool.self, forKey: Key("repeats")) ?? false
            let zone: TriggerTimeZone = try Self.decodeZone(body, forKey: Key("timeZone")).map { .fixed($0) } ?? .floating
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
                repeats: try body.decodeIfPresent(Bool.self, forKey: Key("repeats")) ?? false,
                monitorOptions: try body.decodeIfPresent(MonitorOptionsJSON.self, forKey: Key("monitor"))?.options))
        case "recurrence":
            self = .recurrence(try container.decode(RecurrenceTriggerSource.self, forKey: Key(kind)).trigger())
        default:
            self = .push
        }
    }

    /// A zone: an IANA or fixed-offset name, or a hand-built zone's table (`ZoneRules+Coding`).
    private static func decodeZone(_ body: KeyedDecodingContainer<Key>, forKey key: Key) throws -> ZoneRules? {
        guard body.contains(key) else { return nil }
        if let name = try? body.decode(String.self, forKey: key) { return try ZoneRules.decoded(name: name) }
        return try ZoneRules(table: try body.decode(ZoneRules.Table.self, forKey: key))
    }

    private static func encodeZone(_ rules: ZoneRules, into body: inout KeyedEncodingContainer<Key>, forKey key: Key) throws {
        if let name = rules.encodedName { try body.encode(name, forKey: key) } else { try body.encode(rules.table, forKey: key) }
    }

    /// Unknown keys inside a trigger are errors, not silently ignored typos.
    private static func checkKeys(_ body: KeyedDecodingContainer<Key>, kind: String) throws {
        let allowed: Set<String> = switch kind {
        case "calendar": ["dateMatching", "repeats", "timeZone"]
        case "timeInterval": ["interval", "repeats"]
        case "location": ["region", "notifyOnEntry", "notifyOnExit", "repeats", "monitor"]
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
            var body = container.nestedContainer(keyedBy: Key.self, forKey: Key(kind.rawValue))
            var matching: [String: Int] = [:]
            for unit in CalendarUnit.allCases {
                if let value = trigger.dateComponents.value(for: unit.component) { matching[unit.name] = value }
            }
            try body.encode(matching, forKey: Key("dateMatching"))
            try body.encode(trigger.repeats, forKey: Key("repeats"))
            if case .fixed(let rules) = trigger.timeZone { try Self.encodeZone(rules, into: &body, forKey: Key("timeZone")) }
        case .timeInterval(let trigger):
            var body = container.nestedContainer(keyedBy: Key.self, forKey: Key(kind.rawValue))
            try body.encode(trigger.timeInterval, forKey: Key("interval"))
            try body.encode(trigger.repeats, forKey: Key("repeats"))
        case .location(let trigger):
            var body = container.nestedContainer(keyedBy: Key.self, forKey: Key(kind.rawValue))
            try body.encode(RegionJSON(region: trigger.region), forKey: Key("region"))
            try body.encode(trigger.notifyOnEntry, forKey: Key("notifyOnEntry"))
            try body.encode(trigger.notifyOnExit, forKey: Key("notifyOnExit"))
            try body.encode(trigger.repeats, forKey: Key("repeats"))
            if let options = trigger.monitorOptions { try body.encode(MonitorOptionsJSON(options), forKey: Key("monitor")) }
        case .recurrence(let trigger):
            try container.encode(RecurrenceTriggerSource(trigger), forKey: Key(kind.rawValue))
        case .push:
            _ = container.nestedContainer(keyedBy: Key.self, forKey: Key(kind.rawValue))
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

/// A location trigger's own monitor options in JSON:
/// `{"initial":"none|enter","hysteresis":M,"dwell":S,"cross":B,"maxAccuracy":M}`, each optional.
struct MonitorOptionsJSON: Codable {
    var options: MonitorOptions

    init(_ options: MonitorOptions) { self.options = options }

    private enum Keys: String, CodingKey, CaseIterable { case initial, hysteresis, dwell, cross, maxAccuracy }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        var options = MonitorOptions()
        if let initial = try c.decodeIfPresent(String.self, forKey: .initial) {
            guard let state = MonitorOptions.InitialState(rawValue: initial) else {
                throw DataError("monitor: initial '\(initial)' must be none or enter")
            }
            options.initial = state
        }
        options.hysteresis = try c.decodeIfPresent(Double.self, forKey: .hysteresis) ?? 0
        options.dwell = try c.decodeIfPresent(Double.self, forKey: .dwell)
        options.cross = try c.decodeIfPresent(Bool.self, forKey: .cross) ?? false
        options.maxAccuracy = try c.decodeIfPresent(Double.self, forKey: .maxAccuracy)
        self.options = try options.validated()
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        if options.initial != .none { try c.encode(options.initial.rawValue, forKey: .initial) }
        if options.hysteresis != 0 { try c.encode(options.hysteresis, forKey: .hysteresis) }
        try c.encodeIfPresent(options.dwell, forKey: .dwell)
        if options.cross { try c.encode(options.cross, forKey: .cross) }
        try c.encodeIfPresent(options.maxAccuracy, forKey: .maxAccuracy)
    }
}
