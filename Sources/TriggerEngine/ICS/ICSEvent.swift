/// One VEVENT or VTODO with its values resolved (zones, dates, rules): a master
/// (with RRULE/RDATE) or an override (with RECURRENCE-ID).
public struct ICSEvent: Sendable {
    /// UID (§3.8.4.7): the series this event or override belongs to (synthetic
    /// when the component had none).
    public var uid: String
    /// SUMMARY, unescaped.
    public var summary: String
    public var description: String
    /// A VTODO rather than a VEVENT.
    public var isTodo: Bool
    /// STATUS:CANCELLED (§3.8.1.11).
    public var isCancelled: Bool
    /// SEQUENCE (§3.8.7.4): of two components for the same instance, the higher wins.
    public var sequence: Int
    /// DTSTART (for a VTODO without DTSTART: its DUE).
    public var start: ICSTime
    /// The length: from DTEND/DUE (exact), DURATION (nominal days), or the §3.6.1 defaults.
    public var length: ICSDuration
    /// RRULEs (§3.8.5.3), parsed and validated; several (RFC 2445 allowed it,
    /// exporters still write it) give the union of their instances.
    public var rules: [RecurrenceRule]
    /// RDATE values (§3.8.5.2), each with its PERIOD end when given, of
    /// DTSTART's value type (a DATE in a timed series starts at midnight).
    public var recurrenceDates: [(start: ICSTime, end: Int?)]
    /// EXDATE instants (§3.8.5.1).
    public var exceptionInstants: Set<Int>
    /// EXDATE days (days since 1970-01-01): DATE values in a timed series, and
    /// every value in an all-day one, exclude each instance on that day.
    public var exceptionDays: Set<Int>
    /// RECURRENCE-ID (§3.8.4.4), for an override.
    public var recurrenceID: ICSTime?
    /// RANGE=THISANDFUTURE on the RECURRENCE-ID.
    public var thisAndFuture: Bool
    /// The VALARMs inside the component, in file order.
    public var alarms: [ICSAlarm]
    /// The line of BEGIN.
    public var line: Int
    /// A VTODO without DTSTART and DUE that is not completed: RFC 5545 §3.6.2
    /// associates it with every date until it is completed, and CalDAV's
    /// time-range rule (RFC 4791 §9.9) has it overlap every range. It is listed
    /// as one all-day occurrence from 1970-01-01 to 2038-01-01 (as
    /// recurring-ical-events lists it), with no alarm, and is not imported as a
    /// notification request: there is no time to fire at.
    public var isUndated = false

    /// The end of an instance starting at `start`.
    func end(startingAt start: ICSTime) -> ICSTime {
        if start.isDate { return ICSTime(local: LocalDateTime(localSeconds: start.local.localSeconds + length.days * 86_400), zone: start.zone, isDate: true) }
        let instant = length.instant(after: start)
        return ICSTime(local: start.zone.localTime(atUTC: instant), zone: start.zone, isDate: false)
    }

    /// Whether EXDATE removes the instance at `time` (instant `instant`).
    func excludes(_ time: ICSTime, instant: Int) -> Bool {
        exceptionInstants.contains(instant) || (!exceptionDays.isEmpty && exceptionDays.contains(time.local.dayNumber))
    }

    /// `time` as a value of this event's DTSTART type, for matching a
    /// RECURRENCE-ID of the other type: a DATE in a timed series names the
    /// instance at DTSTART's time of day that date; a DATE-TIME in an all-day
    /// series names the instance of its date.
    func matchingStartType(_ time: ICSTime) -> ICSTime {
        if time.isDate == start.isDate { return time }
        if start.isDate { return ICSTime(local: LocalDateTime(localSeconds: time.local.dayNumber * 86_400), zone: start.zone, isDate: true) }
        return ICSTime(local: LocalDateTime(localSeconds: time.local.dayNumber * 86_400 + start.local.secondOfDay), zone: start.zone, isDate: false)
    }
}
