import CLibICal
import TriggerEngine

/// A date-time as libical represents it, without a zone: the wall time of a
/// DTSTART or of an instance.
struct ICalDateTime: Sendable, Hashable, CustomStringConvertible {
    var year: Int, month: Int, day: Int
    var hour: Int, minute: Int, second: Int
    /// A DATE value (all-day) rather than a DATE-TIME.
    var isDate: Bool

    init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, isDate: Bool = false) {
        (self.year, self.month, self.day) = (year, month, day)
        (self.hour, self.minute, self.second) = (hour, minute, second)
        self.isDate = isDate
    }

    init(_ time: icaltimetype) {
        self.init(year: Int(time.year), month: Int(time.month), day: Int(time.day),
                  hour: Int(time.hour), minute: Int(time.minute), second: Int(time.second),
                  isDate: time.is_date != 0)
    }

    /// The floating `icaltimetype` for this wall time.
    var icalTime: icaltimetype {
        var time = icaltime_null_time()
        time.year = Int32(year); time.month = Int32(month); time.day = Int32(day)
        time.hour = Int32(hour); time.minute = Int32(minute); time.second = Int32(second)
        time.is_date = isDate ? 1 : 0
        return time
    }

    var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let date = pad(year, 4) + pad(month, 2) + pad(day, 2)
        return isDate ? date : date + "T" + pad(hour, 2) + pad(minute, 2) + pad(second, 2)
    }
}

/// libical's recurrence iterator (`icalrecur_iterator`) over one RRULE from one
/// DTSTART, in floating wall time. It owns the iterator and frees it with
/// `icalrecur_iterator_free`.
///
/// TriggerEngine's own engine answers recurrence queries; this type is the
/// cross-check and the benchmark peer.
final class ICalRecurrenceIterator {
    private let handle: OpaquePointer
    /// The parsed rule libical's copy of the rule shares its `rscale` with.
    private let parsed: ICalRecurrenceRule

    /// Parses `rule` (`ICalRecurrenceRule(parsing:)`) and starts iterating at
    /// `start` (`icalrecur_iterator_new`, NULL on a rule it cannot iterate).
    convenience init(rule: String, start: ICalDateTime) throws(ICalError) {
        try self.init(rule: try ICalRecurrenceRule(parsing: rule), start: start)
    }

    /// Starts iterating an already parsed rule at `start`
    /// (`icalrecur_iterator_new`, NULL on a rule it cannot iterate). The
    /// iterator keeps `rule` alive: libical's copy of it shares its `rscale`.
    init(rule: ICalRecurrenceRule, start: ICalDateTime) throws(ICalError) {
        icalerror_clear_errno()
        guard let iterator = icalrecur_iterator_new(rule.recurrence, start.icalTime) else {
            throw LibICalPeer.error(while: "RRULE \(rule.text)") ?? ICalError(code: "cannot iterate", context: "RRULE \(rule.text)")
        }
        handle = iterator
        parsed = rule
    }

    deinit {
        icalrecur_iterator_free(handle)
    }

    /// Moves the iterator to the first instance at or after `start`
    /// (`icalrecur_iterator_set_start`: 1 on success, 0 when the rule has COUNT,
    /// which libical refuses to skip).
    func skip(to start: ICalDateTime) throws(ICalError) {
        icalerror_clear_errno()
        guard icalrecur_iterator_set_start(handle, start.icalTime) == 1 else {
            throw LibICalPeer.error(while: "skipping to \(start)")
                ?? ICalError(code: "cannot skip a COUNT rule", context: "skipping to \(start)")
        }
    }

    /// The next instance, or `nil` when the rule is exhausted
    /// (`icalrecur_iterator_next` returns the null time then).
    func next() -> ICalDateTime? {
        let time = icalrecur_iterator_next(handle)
        if icaltime_is_null_time(time) != 0 { return nil }
        return ICalDateTime(time)
    }
}
