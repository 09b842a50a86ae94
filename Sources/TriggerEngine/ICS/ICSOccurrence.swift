/// One instance of an event or to-do: a master's instance (possibly shifted by a
/// THISANDFUTURE override) or an override.
public struct ICSOccurrence: Sendable {
    public var uid: String
    public var summary: String
    public var description: String
    public var start: ICSTime
    public var end: ICSTime
    /// Set on overridden instances: the RECURRENCE-ID they replace.
    public var recurrenceID: ICSTime?
    public var alarms: [ICSAlarm]
    /// Whether this is an all-day (DATE) instance.
    public var isAllDay: Bool { start.isDate }
    public var startInstant: Int { start.instant }
    public var endInstant: Int { end.instant }
}

/// One firing of an alarm.
public struct ICSAlarmFiring: Sendable {
    public var time: Int
    public var occurrence: ICSOccurrence
    public var alarm: ICSAlarm
}

/// What an import turns into one notification request: the identifier
/// (`UID/instance start in UTC[/alarm-N]`), content, and the instant to fire.
public struct ICSImportedRequest: Sendable {
    public var identifier: String
    public var title: String
    public var body: String
    public var fireTime: Int
}
