/// One instance of an event or to-do: a master's instance (possibly shifted by a
/// THISANDFUTURE override) or an override.
public struct ICSOccurrence: Sendable {
    public var uid: String
    public var summary: String
    public var description: String
    public var start: ICSTime { didSet { startInstant = start.instant } }
    public var end: ICSTime { didSet { endInstant = end.instant } }
    /// Set on overridden instances: the RECURRENCE-ID they replace.
    public var recurrenceID: ICSTime?
    public var alarms: [ICSAlarm]
    /// Whether this is an all-day (DATE) instance.
    public var isAllDay: Bool { start.isDate }
    /// `start.instant` and `end.instant`, kept so that sorting does not resolve zones again.
    public private(set) var startInstant: Int
    public private(set) var endInstant: Int

    public init(uid: String, summary: String, description: String, start: ICSTime, startInstant: Int? = nil, end: ICSTime,
                recurrenceID: ICSTime?, alarms: [ICSAlarm]) {
        self.uid = uid
        self.summary = summary
        self.description = description
        self.start = start
        self.end = end
        self.recurrenceID = recurrenceID
        self.alarms = alarms
        self.startInstant = startInstant ?? start.instant
        endInstant = end.instant
    }
}

extension Array {
    /// The elements in the order of `areInIncreasingOrder`: sorts indices, then
    /// applies the permutation in place by cycles of swaps, so the large values
    /// are moved, never copied (copies retain every zone table and string).
    mutating func sortByIndex(_ areInIncreasingOrder: (Element, Element) -> Bool) {
        var order = indices.sorted { areInIncreasingOrder(self[$0], self[$1]) }
        // Position i must receive the element at order[i]; follow each cycle once.
        for start in order.indices where order[start] != start {
            var position = start
            while order[position] != start {
                let next = order[position]
                swapAt(position, next)
                order[position] = position
                position = next
            }
            order[position] = position
        }
    }
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
