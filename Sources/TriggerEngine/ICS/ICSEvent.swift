/// One VEVENT or VTODO with its values resolved (zones, dates, rule): a master
/// (with RRULE/RDATE) or an override (with RECURRENCE-ID).
public struct ICSEvent: Sendable {
    /// UID (§3.8.4.7): the series this event or override belongs to.
    public var uid: String
    /// SUMMARY, unescaped.
    public var summary: String
    public var description: String
    /// A VTODO rather than a VEVENT.
    public var isTodo: Bool
    /// STATUS:CANCELLED (§3.8.1.11).
    public var isCancelled: Bool
    /// DTSTART (for a VTODO without DTSTART: its DUE).
    public var start: ICSTime
    /// The length: from DTEND/DUE (exact), DURATION (nominal days), or the §3.6.1 defaults.
    public var length: ICSDuration
    /// RRULE (§3.8.5.3), parsed and validated.
    public var rule: RecurrenceRule?
    /// RDATE values (§3.8.5.2), each with its PERIOD end when given.
    public var recurrenceDates: [(start: ICSTime, end: Int?)]
    /// EXDATE instants (§3.8.5.1).
    public var exceptionInstants: Set<Int>
    /// RECURRENCE-ID (§3.8.4.4), for an override.
    public var recurrenceID: ICSTime?
    /// RANGE=THISANDFUTURE on the RECURRENCE-ID.
    public var thisAndFuture: Bool
    /// The VALARMs inside the component, in file order.
    public var alarms: [ICSAlarm]
    /// The line of BEGIN.
    public var line: Int

    /// The end of an instance starting at `start`.
    func end(startingAt start: ICSTime) -> ICSTime {
        if start.isDate { return ICSTime(local: LocalDateTime(localSeconds: start.local.localSeconds + length.days * 86_400), zone: start.zone, isDate: true) }
        let instant = length.instant(after: start)
        return ICSTime(local: start.zone.localTime(atUTC: instant), zone: start.zone, isDate: false)
    }
}
