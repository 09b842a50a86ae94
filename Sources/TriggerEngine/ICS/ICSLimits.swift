/// The bounds the iCalendar reader enforces where input enters, so that the
/// work and memory of a read follow the size of the calendar, not what a hostile
/// file asks for. No real calendar comes near them; each attack hits one early.
/// Passing one is a warning (the excess is skipped), not an error. Tests read
/// with smaller limits; calendars are read with `standard`.
public struct ICSLimits: Sendable, Hashable {
    /// An unfolded content line (RFC 5545 §3.1): 8 MiB. Real lines are under
    /// 100 bytes, except inline attachments (base64 ATTACH, a few MB at most).
    public var maximumLineBytes = 8 << 20

    /// Components open inside one another, VCALENDAR included: 32. Real
    /// calendars nest 3 deep (VCALENDAR, VEVENT, VALARM). Deeper components are
    /// skipped with their content, so no tree is ever deep enough to cost stack.
    public var maximumNesting = 32

    /// Components (BEGIN lines) in one file: 2,000,000, ten times the 200,000 of
    /// the 24.5 MB benchmark calendar (100,000 events and their alarms).
    public var maximumComponents = 2_000_000

    /// Offset changes one VTIMEZONE observance may make in a year: 12. Real
    /// zones change twice a year, four times at most (Morocco); a STANDARD with
    /// `RRULE:FREQ=HOURLY` would otherwise be expanded hour by hour.
    public var maximumZoneChangesPerYear = 12

    /// Offset changes in one VTIMEZONE's expanded table: 100,000. A zone's table
    /// runs from its first observance to 800 years after its last rule change
    /// (then repeats), about 1,600 entries for Outlook's `DTSTART:16010101` zones.
    public var maximumZoneChanges = 100_000

    /// The limits every calendar is read with.
    public static let standard = ICSLimits()

    /// The standard limits; change a field to read with another.
    public init() {}
}
