/// A request's trigger as the dispatcher reschedules it: on epoch seconds, with
/// calendar and recurrence triggers compiled once and shared (interned in a
/// `FireScheduleTable`), so a fire costs one search and no copy of the request.
enum FireSchedule {
    /// No trigger: fires once, at once.
    case immediate
    /// Location or push: fires on an event, never on the clock.
    case event(repeats: Bool)
    /// A calendar trigger: its search in the table.
    case calendar(Int32, repeats: Bool)
    case interval(TimeIntervalTrigger)
    /// A recurrence trigger (always repeating): its trigger in the table.
    case recurrence(Int32)

    /// Whether the request stays pending after a fire.
    var repeats: Bool {
        switch self {
        case .immediate: return false
        case .event(let repeats): return repeats
        case .calendar(_, let repeats): return repeats
        case .interval(let trigger): return trigger.repeats
        case .recurrence: return true
        }
    }
}
