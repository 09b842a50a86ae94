import Foundation

/// A DATE or DATE-TIME value of a calendar (RFC 5545 §3.3.4, §3.3.5): a wall
/// time and the zone that turns it into an instant (UTC for `Z` times, the TZID's
/// zone, or the floating zone for floating times and dates).
public struct ICSTime: Sendable, Hashable {
    /// The wall time (midnight for a DATE).
    public var local: LocalDateTime
    /// The zone of the wall time.
    public var zone: ZoneRules
    /// A DATE (all-day) value.
    public var isDate: Bool

    /// A wall time in `zone`; `isDate` for an all-day DATE value.
    public init(local: LocalDateTime, zone: ZoneRules, isDate: Bool) {
        self.local = local
        self.zone = zone
        self.isDate = isDate
    }

    /// The instant, epoch seconds; a wall time in a gap is shifted forward by the gap (§3.3.5).
    package var instant: Int { zone.instant(of: local) }
    /// The instant this wall time names in its zone.
    public var date: Date { Date(timeIntervalSince1970: Double(instant)) }

    /// As `trigger-eval ics` writes it: `YYYY-MM-DD` for a date, RFC 3339
    /// with the zone's offset otherwise.
    @_spi(Internals) public var text: String {
        if isDate {
            let fields = local.fields
            return String(format: "%04d-%02d-%02d", fields.year, fields.month, fields.day)
        }
        return RFC3339.string(epochSeconds: instant, utcOffset: zone.offset(atUTC: instant))
    }

    /// Parses `YYYYMMDD` or `YYYYMMDDTHHMMSS[Z]`; `zone` applies to floating text without `Z`.
    static func parse(_ text: Substring, zone: ZoneRules, dateOnly: Bool) -> ICSTime? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 else { return nil }
                value = value * 10 + Int(bytes[index] - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8) else { return nil }
        if bytes.count == 8 {
            guard let local = LocalDateTime.valid(year: year, month: month, day: day) else { return nil }
            return ICSTime(local: local, zone: zone, isDate: true)
        }
        guard !dateOnly, bytes.count == 15 || (bytes.count == 16 && (bytes[15] == 0x5A || bytes[15] == 0x7A)), bytes[8] == 0x54,
              let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15),
              hour < 24, minute < 60, second <= 60,
              let local = LocalDateTime.valid(year: year, month: month, day: day, hour: hour, minute: minute, second: min(second, 59))
        else { return nil }
        return ICSTime(local: local, zone: bytes.count == 16 ? .utc : zone, isDate: false)
    }
}
