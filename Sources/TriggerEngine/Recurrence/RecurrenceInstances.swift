/// The wall times of a `RecurrenceRule` from a DTSTART, ascending, lazily
/// computed: what `RecurrenceRule.instances(startingAt:in:from:)` returns.
///
/// DTSTART is an instance only when it matches the rule (as in python-dateutil;
/// an iCalendar reader that wants RFC 5545's "DTSTART is always the first
/// instance" adds it itself), and COUNT counts instances from DTSTART on, even
/// those before the lower bound. A UTC UNTIL is compared with each instance's
/// instant in the zone given (RFC 5545 §3.3.5 for times in a gap or repeated).
package struct RecurrenceInstances: Sequence, Sendable {
    let engine: RecurrenceEngine
    let lowerBound: Int
    let count: Int?
    /// The last wall time that can be an instance.
    let cut: Int
    let untilInstant: Int?
    let zone: ZoneRules

    init(rule: RecurrenceRule, start: LocalDateTime, zone: ZoneRules, lowerBound: LocalDateTime?) {
        engine = RecurrenceEngine(rule: rule, start: start)
        self.lowerBound = Swift.max(lowerBound?.localSeconds ?? .min, start.localSeconds)
        self.zone = zone
        var count: Int?
        var cut = Int.max
        var untilInstant: Int?
        switch rule.end {
        case .never: break
        case .count(let limit): count = limit
        case .until(.date(let day)): cut = day.localSeconds + 86_399
        case .until(.local(let wall)): cut = wall.localSeconds
        case .until(.instant(let instant)):
            untilInstant = instant
            cut = instant + zone.offsetBounds(around: instant).highest
        }
        (self.count, self.cut, self.untilInstant) = (count, cut, untilInstant)
    }

    /// An iterator from the first instance on or after the starting wall time.
    package func makeIterator() -> Iterator { Iterator(self) }

    /// Walks the rule's periods, a bounded batch of instances at a time.
    package struct Iterator: IteratorProtocol, Sendable {
        private let instances: RecurrenceInstances
        private var buffer: [Int] = []
        private var scratch: [Int] = []
        private var position = 0
        private var nextPeriod: Int
        private var nextLower: Int
        private var counted = 0
        private var finished = false
        /// Set when a COUNT rule had to walk more than `countWalkLimit`
        /// instances before the lower bound: the sequence ends there, short.
        package private(set) var stoppedAtWalkLimit = false
        /// Instances a COUNT rule may walk before the lower bound (as
        /// `RecurrenceTrigger` resolves COUNT): `FREQ=SECONDLY;COUNT=999999999`
        /// from 2000 would otherwise walk 30 years of seconds to reach 2030.
        package static let countWalkLimit = RecurrenceEngine.countWalkLimit
        /// Instances fetched at once: a period (a YEARLY rule with BYHOUR and
        /// BYMINUTE) can hold hundreds of thousands.
        private static let batch = 1024

        init(_ instances: RecurrenceInstances) {
            self.instances = instances
            // With COUNT, counting starts at DTSTART whatever the lower bound.
            nextLower = instances.count == nil ? instances.lowerBound : instances.engine.start
            nextPeriod = instances.engine.periodIndex(containing: nextLower)
        }

        /// The next instance, or nil after the last (COUNT, UNTIL or the walk limit).
        package mutating func next() -> LocalDateTime? {
            while !finished {
                if position == buffer.count {
                    buffer.removeAll(keepingCapacity: true)
                    position = 0
                    guard let period = instances.engine.findPeriod(
                        from: nextPeriod, lower: nextLower, cut: instances.cut, limit: Self.batch,
                        into: &buffer, scratch: &scratch), let last = buffer.last
                    else {
                        finished = true
                        return nil
                    }
                    // A full batch may have left part of the period; look at it again.
                    nextPeriod = buffer.count == Self.batch ? period : period + 1
                    nextLower = last + 1
                }
                let wall = buffer[position]
                position += 1
                if let count = instances.count {
                    counted += 1
                    if counted > count {
                        finished = true
                        return nil
                    }
                }
                if wall < instances.lowerBound {
                    if counted > Self.countWalkLimit {
                        finished = true
                        stoppedAtWalkLimit = true
                        return nil
                    }
                    continue
                }
                if let until = instances.untilInstant, instances.zone.instant(of: LocalDateTime(localSeconds: wall)) > until {
                    continue
                }
                return LocalDateTime(localSeconds: wall)
            }
            return nil
        }
    }
}

extension RecurrenceRule {
    /// The rule's instances from `dtstart`, as wall times, ascending: those at or
    /// after `lowerBound` (all of them when `nil`), honouring COUNT and UNTIL.
    ///
    /// `zone` matters only for a UTC UNTIL (`.instant`): an instance is kept when
    /// its instant in `zone` (RFC 5545 §3.3.5: a time in a gap shifted forward by
    /// the gap, a repeated time taken once, the first) is no later than UNTIL.
    /// - Complexity: seeking to `lowerBound` is O(1) in its distance from
    ///   `dtstart` (O(n) with COUNT, which counts from DTSTART: past
    ///   `Iterator.countWalkLimit` instances before `lowerBound` the sequence
    ///   ends, and `Iterator.stoppedAtWalkLimit` says so); each instance after
    ///   that is amortised O(1) for ordinary rules.
    package func instances(startingAt dtstart: LocalDateTime, in zone: ZoneRules = .utc,
                          from lowerBound: LocalDateTime? = nil) -> RecurrenceInstances {
        RecurrenceInstances(rule: self, start: dtstart, zone: zone, lowerBound: lowerBound)
    }
}
