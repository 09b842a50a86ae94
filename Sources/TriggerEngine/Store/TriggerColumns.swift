import Foundation

/// A trigger as the store writes it: a kind and a few text columns instead of
/// JSON, so a reload parses integers and short strings.
///
/// | kind | trigger      | repeats | zone          | interval | parameters                    | start   | exdates, rdates |
/// |------|--------------|---------|---------------|----------|-------------------------------|---------|-----------------|
/// | 0    | none         | 0       |               |          |                               |         |                 |
/// | 1    | calendar     | 0/1     | fixed zone¹   |          | `hour=9;minute=30`            |         |                 |
/// | 2    | timeInterval | 0/1     |               | seconds  |                               |         |                 |
/// | 3    | location     | 0/1     |               |          | `StoredLocation`'s JSON       |         |                 |
/// | 4    | recurrence   | 1       | `tz`          |          | the RRULE (absent: RDATE only)| dtstart | comma-separated |
/// | 5    | push         | 0       |               |          |                               |         |                 |
///
/// ¹ A zone is its name, or a hand-built zone's table as JSON (`ZoneRules+Coding`).
///
/// Calendar, location and recurrence triggers (`isShared`) are written once
/// each, in the `triggers` table, and pending rows refer to them by id: a
/// million requests usually share far fewer of them, and a reload parses each
/// once. The others live in the pending row itself.
///
/// The same columns, as a JSON object, are the trigger of a `StoredRequest`
/// (delivered notifications, event fires, PostgreSQL rows).
struct TriggerColumns: Hashable, Codable {
    var kind = 0
    var repeats = false
    var zone: String?
    var interval: Double?
    var parameters: String?
    var start: String?
    var exdates: String?
    var rdates: String?

    /// Whether the trigger is stored once in the `triggers` table and shared by reference.
    var isShared: Bool { kind == 1 || kind == 3 || kind == 4 }

    /// The shared trigger's identity in the `triggers` table: the kind, the repeat
    /// flag and each text column as `=value` or `-` for NULL, separated by U+001F
    /// (no column holds that character). Schema version 2 computed the same key
    /// in SQL, which the migration to version 3 relies on (`sqlKey`).
    var key: String {
        var key = "\(kind)\(repeats ? 1 : 0)"
        for column in [zone, parameters, start, exdates, rdates] {
            key += "\u{1F}" + (column.map { "=" + $0 } ?? "-")
        }
        return key
    }

    /// `key` as an SQL expression over the columns of these names in `table`.
    static func sqlKey(of table: String) -> String {
        "\(table).kind || \(table).repeats "
            + ["zone", "parameters", "start", "exdates", "rdates"]
                .map { "|| char(31) || coalesce('=' || \(table).\($0), '-')" }.joined(separator: " ")
    }

    init() {}

    // MARK: Encoding

    /// The columns of `trigger`.
    init(_ trigger: NotificationTrigger?) throws {
        switch trigger {
        case nil:
            break
        case .calendar(let trigger)?:
            kind = 1
            repeats = trigger.repeats
            if case .fixed(let rules) = trigger.timeZone { zone = rules.encodedText }
            parameters = CalendarUnit.allCases.compactMap { unit in
                trigger.dateComponents.value(for: unit.component).map { "\(unit.name)=\($0)" }
            }.joined(separator: ";")
        case .timeInterval(let trigger)?:
            kind = 2
            repeats = trigger.repeats
            interval = trigger.timeInterval
        case .location(let trigger)?:
            kind = 3
            repeats = trigger.repeats
            parameters = try StoredLocation(trigger).text()
        case .recurrence(let trigger)?:
            let source = RecurrenceTriggerSource(trigger)
            kind = 4
            repeats = true
            zone = source.tz
            parameters = source.rrule
            start = source.dtstart
            exdates = source.exdates.isEmpty ? nil : source.exdates.joined(separator: ",")
            rdates = source.rdates.isEmpty ? nil : source.rdates.joined(separator: ",")
        case .push?:
            kind = 5
        }
    }

    // MARK: Decoding

    /// The trigger these columns describe.
    /// - Throws: `DataError` saying which column does not make a valid trigger.
    func trigger() throws -> NotificationTrigger? {
        switch kind {
        case 0:
            return nil
        case 1:
            let zone: TriggerTimeZone = try zone.map { text throws(DataError) in .fixed(try ZoneRules.decoded(text: text)) } ?? .floating
            return .calendar(try CalendarTrigger(dateMatching: try Self.dateComponents(parameters ?? ""),
                                                 repeats: repeats, timeZone: zone))
        case 2:
            guard let interval else { throw DataError("time-interval trigger without an interval") }
            return .timeInterval(try TimeIntervalTrigger(timeInterval: interval, repeats: repeats))
        case 3:
            return .location(try StoredLocation(text: parameters ?? "").trigger(repeats: repeats))
        case 4:
            let source = RecurrenceTriggerSource(rrule: parameters, dtstart: start ?? "", tz: zone,
                                                 exdates: Self.list(exdates), rdates: Self.list(rdates))
            return .recurrence(try source.trigger())
        case 5:
            return .push
        default:
            throw DataError("trigger kind \(kind) is unknown")
        }
    }

    /// `hour=9;minute=30` back into date components.
    static func dateComponents(_ text: String) throws(DataError) -> DateComponents {
        var components = DateComponents()
        for pair in text.split(separator: ";") {
            let parts = pair.split(separator: "=")
            guard parts.count == 2, let unit = CalendarUnit.allCases.first(where: { $0.name == parts[0] }),
                  let value = Int(parts[1]) else {
                throw DataError("calendar components '\(text)' are not unit=value pairs")
            }
            components.setValue(value, for: unit.component)
        }
        return components
    }

    private static func list(_ text: String?) -> [String] {
        text.map { $0.split(separator: ",").map(String.init) } ?? []
    }
}
