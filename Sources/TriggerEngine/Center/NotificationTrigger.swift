import Foundation

/// When a request is delivered: `UNNotificationTrigger` and its subclasses, plus
/// RFC 5545 recurrence. JSON forms are those of `trigger-eval simulate`
/// (the command-line contract; the CenterAndDispatcher article): `{"calendar":{…}}`, `{"timeInterval":{…}}`, `{"location":{…}}`,
/// `{"recurrence":{…}}`, `{"push":{}}`.
///
/// The calendar, location and recurrence cases are `indirect`: their payloads
/// are large, and boxed they are shared by copies (the store's reload hands the
/// same trigger to every request that has it), so a request copies cheaply.
public enum NotificationTrigger: Sendable, Hashable {
    indirect case calendar(CalendarTrigger)
    case timeInterval(TimeIntervalTrigger)
    indirect case location(LocationTrigger)
    /// RFC 5545 recurrence; it encodes itself (`RecurrenceTriggerSource` is its JSON form).
    indirect case recurrence(RecurrenceTrigger)
    /// A remote notification, delivered the moment it arrives (`UNPushNotificationTrigger`).
    case push

    /// Which kind of trigger it is.
    public var kind: TriggerKind {
        switch self {
        case .calendar: return .calendar
        case .timeInterval: return .timeInterval
        case .location: return .location
        case .recurrence: return .recurrence
        case .push: return .push
        }
    }

    /// Whether the trigger can fire more than once.
    public var repeats: Bool {
        switch self {
        case .calendar(let trigger): return trigger.repeats
        case .timeInterval(let trigger): return trigger.repeats
        case .location(let trigger): return trigger.repeats
        case .recurrence: return true
        case .push: return false
        }
    }

    /// The first fire strictly after `date`; `nil` when it never fires again or
    /// does not fire on a clock (location, push).
    /// - Parameters:
    ///   - date: the instant to search after.
    ///   - addedAt: when the request was added (time-interval triggers count from it).
    ///   - floatingZone: the zone floating calendar and recurrence triggers follow.
    public func nextTriggerDate(after date: Date, addedAt: Date, in floatingZone: ZoneRules) -> Date? {
        switch self {
        case .calendar(let trigger): return trigger.nextTriggerDate(after: date, in: floatingZone)
        case .timeInterval(let trigger): return trigger.nextTriggerDate(after: date, addedAt: addedAt)
        case .recurrence(let trigger): return trigger.nextTriggerDate(after: date, in: floatingZone)
        case .location, .push: return nil
        }
    }
}
