import Foundation

/// What expanding a calendar over a window found, with the defects it read
/// around on the way (an RRULE it could not use, a series cut at the instance
/// limit): the answer and its warnings travel together.
public struct ICSExpansion<Value: Sendable>: Sendable {
    /// The occurrences, alarm firings or requests.
    public var value: Value
    /// What was read around, in the order it was met.
    public var warnings: [ICSWarning]
}

extension ICSCalendar {
    /// Occurrences overlapping `interval` (an all-day or zero-length one:
    /// starting in it), sorted by start, then UID.
    public func occurrences(in interval: DateInterval) -> ICSExpansion<[ICSOccurrence]> {
        expanding(interval) { from, to, warnings in occurrences(from: from, to: to, warnings: &warnings) }
    }

    /// Every alarm firing in `interval`, sorted by time, then UID.
    public func alarmFirings(in interval: DateInterval) -> ICSExpansion<[ICSAlarmFiring]> {
        expanding(interval) { from, to, warnings in alarmFirings(from: from, to: to, warnings: &warnings) }
    }

    /// Notification requests for `interval`: one per alarm firing, and one at
    /// the start of each occurrence without alarms.
    public func notificationRequests(in interval: DateInterval) -> ICSExpansion<[ICSImportedRequest]> {
        expanding(interval) { from, to, warnings in notificationRequests(from: from, to: to, warnings: &warnings) }
    }

    /// `body` over the whole seconds of `interval` (its start rounded down,
    /// its end up, so that no instant in it is left out).
    private func expanding<Value>(_ interval: DateInterval,
                                  _ body: (Int, Int, inout [ICSWarning]) -> Value) -> ICSExpansion<Value> {
        var warnings: [ICSWarning] = []
        let from = Int(interval.start.timeIntervalSince1970.rounded(.down))
        let to = Int(interval.end.timeIntervalSince1970.rounded(.up))
        let value = body(from, to, &warnings)
        return ICSExpansion(value: value, warnings: warnings)
    }
}
