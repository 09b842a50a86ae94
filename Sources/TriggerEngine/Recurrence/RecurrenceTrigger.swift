import Foundation

/// A trigger that fires on an RFC 5545 recurrence set: the instances of an
/// RRULE from a DTSTART, plus RDATEs, minus EXDATEs, as wall times in a zone.
///
/// - DTSTART is an instance when it matches the rule (python-dateutil's and the
///   command line's semantics); without a rule it is the only one (a one-off).
///   RDATEs are added as given, EXDATEs remove the instances with that wall time.
/// - COUNT counts the rule's instances from DTSTART on; it is resolved once,
///   here, into the wall time of the last instance, so no query walks from DTSTART.
/// - A wall time becomes an instant by RFC 5545 §3.3.5 (`ZoneRules.instant(of:)`):
///   a time in a spring-forward gap is shifted forward by the gap, a repeated
///   time is taken once, the first. The instants come out ascending and distinct,
///   also where a shifted time lands on or past a later instance.
/// - Sub-daily rules (HOURLY, MINUTELY, SECONDLY) step in wall time, as RFC 5545
///   and dateutil describe: `FREQ=HOURLY` fires at 01:00, 03:00 (02:00 shifted,
///   once), 04:00 across a spring-forward gap, and once at 01:00 (the first) on
///   the night the clocks fall back.
public struct RecurrenceTrigger: Sendable, Hashable {
    /// The RRULE, or `nil` for DTSTART plus RDATEs only.
    public let rule: RecurrenceRule?
    /// DTSTART, a wall time in `timeZone`.
    public let start: LocalDateTime
    /// The zone the wall times are in.
    public let timeZone: TriggerTimeZone
    /// RDATE wall times, ascending, without duplicates.
    public let recurrenceDates: [LocalDateTime]
    /// EXDATE wall times, ascending, without duplicates.
    public let exceptionDates: [LocalDateTime]

    let engine: RecurrenceEngine?
    /// The last wall time the rule may produce (COUNT resolved, a wall-time UNTIL).
    let ruleCut: Int
    /// A UTC UNTIL, compared per instance in the evaluation zone.
    let untilInstant: Int?

    /// Creates a trigger and resolves COUNT.
    /// - Throws: `DataError` when COUNT needs more than
    ///   `RecurrenceEngine.countWalkLimit` (1,000,000) periods with instances to resolve.
    /// - Complexity: O(1) without COUNT; O(COUNT) with it, once.
    public init(rule: RecurrenceRule?, start: LocalDateTime, timeZone: TriggerTimeZone,
                recurrenceDates: [LocalDateTime] = [], exceptionDates: [LocalDateTime] = []) throws(DataError) {
        self.rule = rule
        self.start = start
        self.timeZone = timeZone
        self.recurrenceDates = Array(Set(recurrenceDates)).sorted()
        self.exceptionDates = Array(Set(exceptionDates)).sorted()
        var engine = rule.map { RecurrenceEngine(rule: $0, start: start) }
        var cut = Int.max
        var untilInstant: Int?
        switch rule?.end {
        case .none, .never?: break
        case .count(let count)?:
            switch engine!.countedEnd(count) {
            case .last(let wall): cut = wall
            case .empty: engine = nil
            case .tooLong:
                throw DataError("RRULE: COUNT=\(count) needs more than \(RecurrenceEngine.countWalkLimit) periods to resolve; use UNTIL instead")
            }
        case .until(.date(let day))?: cut = day.localSeconds + 86_399
        case .until(.local(let wall))?: cut = wall.localSeconds
        case .until(.instant(let instant))?: untilInstant = instant
        }
        self.engine = engine
        self.ruleCut = cut
        self.untilInstant = untilInstant
    }

    public static func == (lhs: RecurrenceTrigger, rhs: RecurrenceTrigger) -> Bool {
        lhs.rule == rhs.rule && lhs.start == rhs.start && lhs.timeZone == rhs.timeZone
            && lhs.recurrenceDates == rhs.recurrenceDates && lhs.exceptionDates == rhs.exceptionDates
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rule)
        hasher.combine(start)
        hasher.combine(timeZone)
        hasher.combine(recurrenceDates)
        hasher.combine(exceptionDates)
    }
}

// MARK: - Next fire

extension RecurrenceTrigger {
    /// The first instant strictly after `date` at which the trigger fires, or
    /// `nil` when it never fires again.
    ///
    /// - Parameters:
    ///   - date: the instant to search after.
    ///   - floatingZone: the zone of a `.floating` trigger (ignored for a fixed one).
    /// - Complexity: O(1) in the distance from DTSTART: index arithmetic to the
    ///   period holding `date`, one or two period expansions, O(log n) in the
    ///   RDATEs and EXDATEs.
    public func nextTriggerDate(after date: Date, in floatingZone: ZoneRules = .utc) -> Date? {
        let seconds = date.timeIntervalSince1970
        guard !seconds.isNaN else { return nil }
        let bound = Double(RecurrenceEngine.maximumWall)
        let after = Int(min(max(seconds.rounded(.down), -bound), bound))
        return nextTriggerInstant(after: after, in: floatingZone).map { Date(timeIntervalSince1970: Double($0)) }
    }

    /// The first instant (epoch seconds) strictly after `epochSeconds`; see
    /// `nextTriggerDate(after:in:)`.
    /// - Complexity: as `nextTriggerDate(after:in:)`.
    public func nextTriggerInstant(after epochSeconds: Int, in floatingZone: ZoneRules) -> Int? {
        nextTriggerInstant(after: epochSeconds, zone: timeZone.rules(floatingIn: floatingZone))
    }

    /// `nextTriggerInstant(after:in:)` with a floating trigger read in UTC; for a
    /// fixed zone, without fetching (and reference counting) the UTC rules: a
    /// default argument of `.utc` did that on every query.
    public func nextTriggerInstant(after epochSeconds: Int) -> Int? {
        guard case .fixed(let rules) = timeZone else { return nextTriggerInstant(after: epochSeconds, zone: .utc) }
        return nextTriggerInstant(after: epochSeconds, zone: rules)
    }

    private func nextTriggerInstant(after epochSeconds: Int, zone: ZoneRules) -> Int? {
        let target = epochSeconds + 1
        // A wall time w becomes w − offset for an offset in force near its
        // instant, so no wall time before target + lowest can reach target.
        var wall = target + zone.offsetBounds(around: target).lowest
        var cut = ruleCut
        if let untilInstant { cut = min(cut, untilInstant + zone.offsetBounds(around: untilInstant).highest) }
        var best: Int?
        var bestWallLimit = Int.max
        // Usually the first wall time found is the answer. A time in a gap is
        // shifted forward, so a later wall time can map to an earlier instant:
        // keep looking while a later wall time could still map below the best.
        while let (candidate, fromRule) = nextWall(atOrAfter: wall, ruleCut: cut), candidate < bestWallLimit {
            wall = candidate + 1
            let instant = zone.instant(of: LocalDateTime(localSeconds: candidate))
            if fromRule, let untilInstant, instant > untilInstant { continue }
            guard instant >= target, instant < best ?? .max else { continue }
            best = instant
            bestWallLimit = instant + zone.offsetBounds(around: instant).highest
        }
        return best
    }

    /// The instants after `date`, ascending and distinct: `nextTriggerDate` again and again.
    /// - Complexity: each element as `nextTriggerDate(after:in:)`.
    public func fireDates(after date: Date, in floatingZone: ZoneRules = .utc) -> some Sequence<Date> {
        sequence(state: date) { (after: inout Date) -> Date? in
            guard let next = nextTriggerDate(after: after, in: floatingZone) else { return nil }
            after = next
            return next
        }
    }

    /// The first wall time at or after `wall` in (RRULE ∪ RDATE) ∖ EXDATE, and
    /// whether the rule produced it (a UTC UNTIL limits only the rule).
    private func nextWall(atOrAfter wall: Int, ruleCut: Int) -> (Int, Bool)? {
        var wall = wall
        while true {
            let fromRule: Int?
            if let engine {
                fromRule = engine.firstInstance(atOrAfter: wall, cut: ruleCut)
            } else {
                fromRule = rule == nil && start.localSeconds >= wall ? start.localSeconds : nil
            }
            let fromDates = Self.first(in: recurrenceDates, atOrAfter: wall)
            // The earlier of the two, without building an array on this hot path.
            guard let candidate = fromRule.map({ rule in fromDates.map { min(rule, $0) } ?? rule }) ?? fromDates else { return nil }
            if Self.first(in: exceptionDates, atOrAfter: candidate) == candidate {
                wall = candidate + 1
                continue
            }
            return (candidate, candidate == fromRule)
        }
    }

    /// The first element ≥ `wall` of a sorted list, as local seconds.
    private static func first(in sorted: [LocalDateTime], atOrAfter wall: Int) -> Int? {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) >> 1
            if sorted[middle].localSeconds < wall { low = middle + 1 } else { high = middle }
        }
        return low < sorted.count ? sorted[low].localSeconds : nil
    }
}
