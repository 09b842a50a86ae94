import Foundation
import GRDB

/// How a pending request is laid out in the `pending` table (schema version 2):
/// the hot fields in columns, so a reload of a million rows reads integers and
/// short strings instead of running `JSONDecoder` per row. Only a non-empty
/// `userInfo` and a location trigger's region are JSON.
///
/// Trigger columns by `kind`:
///
/// | kind | trigger      | repeats | zone          | interval | parameters                    | start   | exdates, rdates |
/// |------|--------------|---------|---------------|----------|-------------------------------|---------|-----------------|
/// | 0    | none         | 0       |               |          |                               |         |                 |
/// | 1    | calendar     | 0/1     | fixed zone    |          | `hour=9;minute=30`            |         |                 |
/// | 2    | timeInterval | 0/1     |               | seconds  |                               |         |                 |
/// | 3    | location     | 0/1     |               |          | the trigger's JSON            |         |                 |
/// | 4    | recurrence   | 1       | `tz`          |          | the RRULE (absent: RDATE only)| dtstart | comma-separated |
/// | 5    | push         | 0       |               |          |                               |         |                 |
///
/// Decoding keeps a cache of the triggers it built (a million rows usually share
/// far fewer calendar patterns and rules), keyed by one string SQLite builds from
/// the trigger columns, so each distinct trigger is parsed once and the others
/// cost one hash.
struct PendingRowCodec {
    /// The `pending` table's columns, in the order `arguments` binds and `decode` reads them.
    static let columns = ["identifier", "recipient", "next_fire", "added", "misfire", "kind", "repeats", "zone",
                          "interval", "parameters", "start", "exdates", "rdates", "title", "subtitle", "body",
                          "badge", "sound", "category", "thread", "user_info"]

    static let createTable = """
        CREATE TABLE pending(
            identifier TEXT PRIMARY KEY NOT NULL, recipient TEXT NOT NULL, next_fire REAL, added REAL,
            misfire INTEGER NOT NULL, kind INTEGER NOT NULL, repeats INTEGER NOT NULL, zone TEXT, interval REAL,
            parameters TEXT, start TEXT, exdates TEXT, rdates TEXT, title TEXT NOT NULL, subtitle TEXT NOT NULL,
            body TEXT NOT NULL, badge INTEGER, sound TEXT, category TEXT NOT NULL, thread TEXT NOT NULL, user_info BLOB)
        """

    static let insertSQL = "INSERT INTO pending(\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
    /// The columns, then (index 21) the trigger's cache key, which SQLite
    /// concatenates from the trigger columns (each `=value` or `-` for NULL,
    /// separated by U+001F) for calendar, location and recurrence rows: one
    /// short string to hash per row instead of five columns to read.
    static let selectSQL = """
        SELECT \(columns.joined(separator: ", ")),
               CASE WHEN kind IN (1, 3, 4) THEN kind || repeats
                    \(["zone", "parameters", "start", "exdates", "rdates"].map { "|| char(31) || coalesce('=' || \($0), '-')" }.joined(separator: " "))
               END
        FROM pending ORDER BY rowid
        """

    /// Triggers built so far, by the key `selectSQL` computes.
    private var triggers: [String: NotificationTrigger] = [:]
    private let encoder = JSONEncoder()
    private let decoder = JSONDecoder()

    // MARK: Encoding

    /// The statement arguments for `record`, in `columns` order.
    func arguments(for record: NotificationStore.PendingRecord) throws -> StatementArguments {
        let request = record.request
        let content = request.content
        var kind = 0, repeats = false
        var zone: String?, interval: Double?, parameters: String?, start: String?, exdates: String?, rdates: String?
        switch request.trigger {
        case nil:
            break
        case .calendar(let trigger)?:
            kind = 1
            repeats = trigger.repeats
            if case .fixed(let rules) = trigger.timeZone { zone = rules.identifier }
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
            parameters = String(decoding: try encoder.encode(NotificationTrigger.location(trigger)), as: UTF8.self)
        case .recurrence(_, let source)?:
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
        let sound: String? = switch content.sound {
        case nil: nil
        case .default?: "default"
        case .named(let name)?: name
        }
        let userInfo = content.userInfo.isEmpty ? nil : try encoder.encode(content.userInfo)
        let misfire = MisfirePolicy.allCases.firstIndex(of: request.misfirePolicy)!
        let values: [(any DatabaseValueConvertible)?] = [
            request.identifier, record.recipient, record.nextFire?.timeIntervalSince1970,
            request.added?.timeIntervalSince1970, misfire, kind, repeats, zone, interval, parameters, start, exdates,
            rdates, content.title, content.subtitle, content.body, content.badge, sound, content.categoryIdentifier,
            content.threadIdentifier, userInfo,
        ]
        return StatementArguments(values)
    }

    // MARK: Decoding

    /// The record of one row read with `selectSQL`.
    /// - Throws: `DataError` naming the request when a column does not make a valid request.
    mutating func decode(_ row: Row) throws -> NotificationStore.PendingRecord {
        let identifier: String = row[0]
        do {
            let nextFire: Double? = row[2]
            let added: Double? = row[3]
            let misfireIndex: Int = row[4]
            guard MisfirePolicy.allCases.indices.contains(misfireIndex) else {
                throw DataError("misfire policy \(misfireIndex) is unknown")
            }
            let trigger = try self.trigger(row)
            var userInfo: [String: UserInfoValue] = [:]
            if let json: Data = row[20] { userInfo = try decoder.decode([String: UserInfoValue].self, from: json) }
            let sound: NotificationSound? = (row[17] as String?).map { $0 == "default" ? .default : .named($0) }
            let content = NotificationContent(title: row[13], subtitle: row[14], body: row[15], badge: row[16],
                                              sound: sound, userInfo: userInfo, categoryIdentifier: row[18],
                                              threadIdentifier: row[19])
            let request = NotificationRequest(identifier: identifier, content: content, trigger: trigger,
                                              misfirePolicy: MisfirePolicy.allCases[misfireIndex],
                                              added: added.map { Date(timeIntervalSince1970: $0) })
            return NotificationStore.PendingRecord(request: request, recipient: row[1],
                                                   nextFire: nextFire.map { Date(timeIntervalSince1970: $0) })
        } catch {
            throw DataError("stored request '\(identifier)' does not decode: \(error)")
        }
    }

    private mutating func trigger(_ row: Row) throws -> NotificationTrigger? {
        let kind: Int = row[5]
        let repeats: Bool = row[6]
        switch kind {
        case 0: return nil
        case 2:
            guard let interval: Double = row[8] else { throw DataError("time-interval trigger without an interval") }
            return .timeInterval(try TimeIntervalTrigger(timeInterval: interval, repeats: repeats))
        case 5: return .push
        case 1, 3, 4: break
        default: throw DataError("trigger kind \(kind) is unknown")
        }
        let key: String = row[21]
        if let cached = triggers[key] { return cached }
        let zoneName: String? = row[7], parameters: String? = row[9]
        let trigger: NotificationTrigger
        switch kind {
        case 1:
            let zone: TriggerTimeZone = try zoneName.map { name throws(DataError) in .fixed(try ZoneRules.named(name)) } ?? .floating
            trigger = .calendar(try CalendarTrigger(dateMatching: try Self.dateComponents(parameters ?? ""),
                                                    repeats: repeats, timeZone: zone))
        case 3:
            trigger = try decoder.decode(NotificationTrigger.self, from: Data((parameters ?? "").utf8))
        default:
            let start: String? = row[10], exdates: String? = row[11], rdates: String? = row[12]
            let source = RecurrenceTriggerSource(rrule: parameters, dtstart: start ?? "", tz: zoneName,
                                                 exdates: Self.list(exdates), rdates: Self.list(rdates))
            trigger = .recurrence(try source.trigger(), source: source)
        }
        triggers[key] = trigger
        return trigger
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
