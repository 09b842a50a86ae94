import Foundation

/// One instance of an event or to-do: a master's instance (possibly shifted by a
/// THISANDFUTURE override) or an override.
///
/// An occurrence is four integers and one shared reference: what every instance
/// of an event has in common (UID, texts, alarms, zone) lives once in an
/// `ICSOccurrence.Source`. A calendar expands to hundreds of thousands of
/// occurrences that are appended, sorted and filtered; with the zone tables and
/// strings inline, each of those copies cost a dozen reference-count operations.
public struct ICSOccurrence: Sendable {
    /// What the instances of one event (or one override, or one RDATE zone) share.
    final class Source: Sendable {
        let uid: String
        let summary: String
        let description: String
        let alarms: [ICSAlarm]
        let zone: ZoneRules
        let isDate: Bool
        let recurrenceID: ICSTime?
        /// An open to-do without a date (`ICSEvent.isUndated`).
        let isUndated: Bool

        init(uid: String, event: ICSEvent, zone: ZoneRules, isDate: Bool, recurrenceID: ICSTime?) {
            self.isUndated = event.isUndated
            self.uid = uid
            self.summary = event.summary
            self.description = event.description
            self.alarms = event.alarms
            self.zone = zone
            self.isDate = isDate
            self.recurrenceID = recurrenceID
        }
    }

    let source: Source
    /// Wall times of start and end, seconds from 1970-01-01T00:00 local.
    let startLocal: Int
    let endLocal: Int
    /// The start instant, epoch seconds (resolved once, at expansion).
    package let startInstant: Int
    /// The end instant, epoch seconds.
    package let endInstant: Int

    /// When the occurrence starts.
    public var startDate: Date { Date(timeIntervalSince1970: Double(startInstant)) }
    /// When it ends.
    public var endDate: Date { Date(timeIntervalSince1970: Double(endInstant)) }

    init(source: Source, start: ICSTime, startInstant: Int, end: ICSTime) {
        self.source = source
        self.startLocal = start.local.localSeconds
        self.endLocal = end.local.localSeconds
        self.startInstant = startInstant
        self.endInstant = end.instant
    }

    /// The UID of the event.
    public var uid: String { source.uid }
    /// SUMMARY of the event, or of the override that produced this instance.
    public var summary: String { source.summary }
    /// DESCRIPTION of the event, or of the override.
    public var description: String { source.description }
    /// The alarms that apply to this instance.
    public var alarms: [ICSAlarm] { source.alarms }
    /// Set on overridden instances: the RECURRENCE-ID they replace.
    public var recurrenceID: ICSTime? { source.recurrenceID }
    /// Whether this is an all-day (DATE) instance.
    public var isAllDay: Bool { source.isDate }
    /// Whether this stands for an open to-do without a date (`ICSEvent.isUndated`):
    /// listed, never imported as a notification request.
    public var isUndated: Bool { source.isUndated }
    /// The start, as a wall time in the event's zone.
    public var start: ICSTime { ICSTime(local: LocalDateTime(localSeconds: startLocal), zone: source.zone, isDate: source.isDate) }
    /// The end (exclusive), as a wall time in the event's zone.
    public var end: ICSTime { ICSTime(local: LocalDateTime(localSeconds: endLocal), zone: source.zone, isDate: source.isDate) }
}

extension Array {
    /// The elements ordered by an integer key; elements with equal keys keep
    /// their order. Sorts (key, index) pairs, so the comparisons touch no element.
    /// - Complexity: O(n log n).
    func stablySorted(by key: (Element) -> Int) -> [Element] {
        var order = indices.map { (key: key(self[$0]), index: $0) }
        order.sort { $0.key != $1.key ? $0.key < $1.key : $0.index < $1.index }
        return order.map { self[$0.index] }
    }
}

/// One firing of an alarm.
public struct ICSAlarmFiring: Sendable {
    /// The instant the alarm fires, epoch seconds.
    package var time: Int
    /// When the alarm fires.
    public var date: Date { Date(timeIntervalSince1970: Double(time)) }
    /// The instance the alarm belongs to.
    public var occurrence: ICSOccurrence
    /// The VALARM that fires.
    public var alarm: ICSAlarm
}

/// What an import turns into one notification request: the identifier
/// (`UID/instance start in UTC[/alarm-N]`), content, and the instant to fire.
public struct ICSImportedRequest: Sendable {
    /// `UID/<instance start, UTC>[/alarm-N]`: unique per instance and alarm, stable across imports.
    public var identifier: String
    /// The event's SUMMARY.
    public var title: String
    /// The alarm's DESCRIPTION, else the event's.
    public var body: String
    /// The instant to fire, epoch seconds.
    package var fireTime: Int
    /// When the request fires.
    public var fireDate: Date { Date(timeIntervalSince1970: Double(fireTime)) }
}
