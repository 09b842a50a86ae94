import Foundation

/// The compiled calendar searches and recurrence triggers the dispatcher's
/// requests share: a million requests usually hold far fewer distinct
/// patterns. Each entry counts the requests that hold it (`schedule(for:)` and
/// `retain` count one more, `release` one less); an entry no request holds
/// leaves the index and its slot is reused, so the table follows the distinct
/// triggers pending, not every trigger ever added.
///
/// Each calendar search remembers its last answer: requests that share a
/// pattern fire at the same instant and then ask for the same next fire, so
/// all but the first get it without searching. The search is a pure function
/// of its pattern, zone and instant, so the remembered answer is the answer.
struct FireScheduleTable {
    private struct CalendarKey: Hashable {
        var pattern: CalendarPattern
        /// The fixed zone's identifier, `nil` for floating.
        var zone: String?

        /// Hashes the set units and the fields triggers mostly differ in (a
        /// restart hashes a key per request); equality still compares every field.
        func hash(into hasher: inout Hasher) {
            hasher.combine(pattern.set.rawValue)
            hasher.combine(pattern[.minute] ?? -1)
            hasher.combine(pattern[.hour] ?? -1)
            hasher.combine(pattern[.weekday] ?? -1)
            hasher.combine(pattern[.day] ?? -1)
            hasher.combine(pattern[.month] ?? -1)
            hasher.combine(zone)
        }
    }

    /// The zone floating triggers follow.
    let floatingZone: ZoneRules
    private var calendars: [CalendarSearch] = []
    private var calendarKeys: [CalendarKey] = []
    /// Searches by pattern and zone name; more than one when hand-built zones share a name.
    private var calendarIndex: [CalendarKey: [Int32]] = [:]
    /// Per search: the instant last asked about, and the answer (NaN for none).
    private var lastAsked: [Double] = []
    private var lastAnswer: [Double] = []
    private var recurrences: [RecurrenceTrigger] = []
    private var recurrenceIndex: [RecurrenceTrigger: Int32] = [:]
    /// Per entry: how many requests hold it (0: a free slot, listed in `free…`).
    private var calendarHolders: [Int32] = [], recurrenceHolders: [Int32] = []
    private var freeCalendars: [Int32] = [], freeRecurrences: [Int32] = []

    init(floatingZone: ZoneRules) { self.floatingZone = floatingZone }

    /// How many distinct triggers the table holds.
    var count: Int { calendars.count - freeCalendars.count + recurrences.count - freeRecurrences.count }

    /// How many entries are allocated, free slots included: the most distinct
    /// triggers held at any one time.
    var allocatedCount: Int { calendars.count + recurrences.count }

    /// The schedule of `trigger`, interning its search or recurrence, held once
    /// more (`release` it when the request goes).
    /// - Complexity: O(1) expected (one hash of the pattern or source).
    mutating func schedule(for trigger: NotificationTrigger?) -> FireSchedule {
        switch trigger {
        case nil: return .immediate
        case .location(let location)?: return .event(repeats: location.repeats)
        case .push?: return .event(repeats: false)
        case .timeInterval(let interval)?: return .interval(interval)
        case .calendar(let calendar)?:
            let rules = calendar.timeZone.rules(floatingIn: floatingZone)
            let key = CalendarKey(pattern: calendar.pattern, zone: {
                if case .fixed(let fixed) = calendar.timeZone { return fixed.identifier } else { return nil }
            }())
            // Two zones may share a name yet differ (hand-built rules): check before sharing.
            if let index = calendarIndex[key]?.first(where: { calendars[Int($0)].calendar.rules == rules }) {
                calendarHolders[Int(index)] += 1
                return .calendar(index, repeats: calendar.repeats)
            }
            let search = CalendarSearch(calendar: ZoneCalendar(rules: rules), pattern: calendar.pattern)
            let index: Int32
            if let free = freeCalendars.popLast() {
                index = free
                calendars[Int(index)] = search
                calendarKeys[Int(index)] = key
                lastAsked[Int(index)] = .nan
                lastAnswer[Int(index)] = .nan
                calendarHolders[Int(index)] = 1
            } else {
                index = Int32(calendars.count)
                calendars.append(search)
                calendarKeys.append(key)
                lastAsked.append(.nan)
                lastAnswer.append(.nan)
                calendarHolders.append(1)
            }
            calendarIndex[key, default: []].append(index)
            return .calendar(index, repeats: calendar.repeats)
        case .recurrence(let recurrence)?:
            if let index = recurrenceIndex[recurrence] {
                recurrenceHolders[Int(index)] += 1
                return .recurrence(index)
            }
            let index: Int32
            if let free = freeRecurrences.popLast() {
                index = free
                recurrences[Int(index)] = recurrence
                recurrenceHolders[Int(index)] = 1
            } else {
                index = Int32(recurrences.count)
                recurrences.append(recurrence)
                recurrenceHolders.append(1)
            }
            recurrenceIndex[recurrence] = index
            return .recurrence(index)
        }
    }

    /// Holds `schedule`'s entry once more (a request given a schedule it shares
    /// without `schedule(for:)`).
    mutating func retain(_ schedule: FireSchedule) {
        switch schedule {
        case .calendar(let index, _): calendarHolders[Int(index)] += 1
        case .recurrence(let index): recurrenceHolders[Int(index)] += 1
        case .immediate, .event, .interval: break
        }
    }

    /// Holds `schedule`'s entry once less; an entry no request holds leaves the
    /// index and its slot is reused.
    mutating func release(_ schedule: FireSchedule) {
        switch schedule {
        case .calendar(let index, _):
            let i = Int(index)
            calendarHolders[i] -= 1
            guard calendarHolders[i] == 0 else { return }
            let key = calendarKeys[i]
            calendarIndex[key]?.removeAll { $0 == index }
            if calendarIndex[key]?.isEmpty == true { calendarIndex[key] = nil }
            freeCalendars.append(index)
        case .recurrence(let index):
            let i = Int(index)
            recurrenceHolders[i] -= 1
            guard recurrenceHolders[i] == 0 else { return }
            if recurrenceIndex[recurrences[i]] == index { recurrenceIndex[recurrences[i]] = nil }
            freeRecurrences.append(index)
        case .immediate, .event, .interval:
            break
        }
    }

    /// The first fire strictly after `after` (epoch seconds), whether or not the
    /// trigger repeats; `nil` when there is none or the schedule is not on the
    /// clock. Same answers as `NotificationTrigger.nextTriggerDate(after:addedAt:in:)`.
    /// - Complexity: one calendar search (none when the search was just asked
    ///   the same), recurrence step or O(1) interval step.
    mutating func fire(_ schedule: FireSchedule, after: Double, addedAt: Double) -> Double? {
        switch schedule {
        case .immediate, .event:
            return nil
        case .calendar(let index, _):
            let i = Int(index)
            if lastAsked[i] == after { return lastAnswer[i].isNaN ? nil : lastAnswer[i] }
            calendars[i] = calendars[i].centred(on: after)
            let answer = calendars[i].next(after: after)
            lastAsked[i] = after
            lastAnswer[i] = answer ?? .nan
            return answer
        case .interval(let trigger):
            return trigger.nextTriggerDate(after: Date(timeIntervalSince1970: after),
                                           addedAt: Date(timeIntervalSince1970: addedAt))?.timeIntervalSince1970
        case .recurrence(let index):
            return recurrences[Int(index)].nextTriggerDate(after: Date(timeIntervalSince1970: after),
                                                            in: floatingZone)?.timeIntervalSince1970
        }
    }

    /// Forgets every interned trigger.
    mutating func removeAll() {
        self = FireScheduleTable(floatingZone: floatingZone)
    }
}
