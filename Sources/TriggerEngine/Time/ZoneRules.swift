import Foundation
import Synchronization

/// How a wall time maps to instants in a zone.
package enum LocalTimeResolution: Sendable, Hashable {
    /// Exactly one instant (epoch seconds).
    case unique(Int)
    /// The wall time falls in a gap (spring forward): `transition` is the instant
    /// the clocks jumped, from `offsetBefore` to `offsetAfter` seconds east of UTC.
    case skipped(transition: Int, offsetBefore: Int, offsetAfter: Int)
    /// The wall time happens twice (fall back): the earlier and the later instant.
    case repeated(first: Int, second: Int)
}

/// A time zone's offsets as a table of transitions: O(log n) conversions between
/// instants and wall times, without a call into Foundation or ICU per query.
///
/// Tables for IANA zones are read once from Foundation's `TimeZone` (so every
/// offset agrees with `Calendar` exactly) over 1800–2500; later instants map back
/// into the table by whole 400-year Gregorian cycles, over which the calendar,
/// weekdays included, repeats exactly. Tables for a file's VTIMEZONE are built by
/// the iCalendar reader through `init(identifier:initialOffset:transitions:)`.
public struct ZoneRules: Sendable, Hashable, CustomStringConvertible {
    /// The table, in one immutable object: every calendar query copies the
    /// rules, and a copy of one reference is one reference count, where a
    /// copy of the name and three arrays was four (in a debug build, where
    /// such copies are not optimised away, about a quarter of the test
    /// suite's CPU went to copying and releasing rules and calendars).
    @usableFromInline let storage: Storage

    /// A zone's transition table and its indexes (see `ZoneRules`'s properties
    /// of the same names), in memory it allocates once and frees in `deinit`.
    ///
    /// The tables are plain buffers rather than arrays: reading an array
    /// through the object retained and released it on every look-up in a
    /// debug build (a fifth of the debug-built test suite's CPU on 29 Nov
    /// 2026), and a buffer is read with no reference count at all.
    /// `@unchecked Sendable`: the buffers are written in `init` only, and
    /// freed only when no `ZoneRules` refers to the object.
    @usableFromInline final class Storage: @unchecked Sendable {
        @usableFromInline let identifier: String
        @usableFromInline let times: UnsafeBufferPointer<Int>
        @usableFromInline let offsets: UnsafeBufferPointer<Int>
        @usableFromInline let indexes: UnsafeBufferPointer<Int32>
        /// See `ZoneRules.wholeMinutesFrom`.
        let wholeMinutesFrom: Int
        /// See `ZoneRules.isNamedUTC`.
        let isNamedUTC: Bool

        init(identifier: String, transitionTimes: [Int], offsets: [Int], indexes: [Int32]) {
            self.identifier = identifier
            isNamedUTC = identifier == "UTC" || identifier == "GMT"
            times = Self.copy(transitionTimes)
            self.offsets = Self.copy(offsets)
            self.indexes = Self.copy(indexes)
            wholeMinutesFrom = (offsets.lastIndex { $0 % 60 != 0 } ?? -1) + 1
        }

        deinit {
            times.deallocate()
            offsets.deallocate()
            indexes.deallocate()
        }

        private static func copy<Element>(_ elements: [Element]) -> UnsafeBufferPointer<Element> {
            let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: elements.count)
            _ = buffer.initialize(from: elements)
            return UnsafeBufferPointer(buffer)
        }
    }

    /// The zone's name: an IANA identifier, or a VTIMEZONE's TZID.
    public var identifier: String { storage.identifier }
    /// Whether the zone is named `UTC` or `GMT`, whose instants are written
    /// with `Z`: decided once, not by comparing names for every instant written.
    package var isNamedUTC: Bool { storage.isNamedUTC }
    /// `offsets[0]` holds before `transitionTimes[0]`; `offsets[i + 1]` from
    /// `transitionTimes[i]` on. Times are epoch seconds, offsets seconds east of UTC.
    ///
    /// Valid while these rules are: methods of `ZoneRules` (and of a value
    /// holding it) read them through `self`, which holds the storage for the call.
    @usableFromInline var transitionTimes: UnsafeBufferPointer<Int> { storage.times }
    @usableFromInline var offsets: UnsafeBufferPointer<Int> { storage.offsets }
    /// The table in the shape `init(identifier:initialOffset:transitions:coverageEnd:)`
    /// takes it, as arrays: for code that keeps it beyond a call (encoding, a
    /// VTIMEZONE made from a system zone).
    var transitionTable: (initialOffset: Int, transitions: [(at: Int, offset: Int)]) {
        (storage.offsets[0], zip(storage.times, storage.offsets.dropFirst()).map { (at: $0, offset: $1) })
    }
    /// The end of the table; later instants are folded back by 400-year cycles.
    /// (Plain numbers stay beside the storage: copying them costs nothing.)
    @usableFromInline let coverageEnd: Int
    /// Two indexes into the table, in one array:
    ///
    /// - `indexes[b]` for `b < bucketCount`, so that an offset costs a step or
    ///   two instead of a binary search: the number of transitions before
    ///   `transitionTimes[0] + b << bucketShift`;
    /// - `indexes[bucketCount + i]` for each index `i` of the table: the index
    ///   of the first transition at or after `i` that does not leave local
    ///   midnight alone (the count of transitions when none does), so that the
    ///   calendar search tells in two lookups whether its day-number shortcuts
    ///   hold over years of transitions (`transitionsLeaveMidnightAlone(from:through:)`).
    @usableFromInline var indexes: UnsafeBufferPointer<Int32> { storage.indexes }
    @usableFromInline let bucketCount: Int
    /// The first year from which each year's transitions follow from its
    /// kind (`yearKindsStart`); computed once with the table.
    let yearKindsFrom: Int
    /// The index into `offsets` from which every offset is a whole number of
    /// minutes (one past the last that is not; 0 when all are): local mean
    /// times end early in most zones (`offsetsAreWholeMinutes(from:)`). Kept
    /// in the storage: a fifth word in `ZoneRules` itself made every copy and
    /// call of it slower (over four words a struct is passed indirectly), a
    /// tenth of some searches' time.
    var wholeMinutesFrom: Int { storage.wholeMinutesFrom }

    /// Buckets of 2^22 s (48.5 days): zones change offset at most a few times in one.
    @usableFromInline static let bucketShift = 22

    /// 400 Gregorian years: 146,097 days, a whole number of weeks.
    @usableFromInline static let cycleSeconds = 146_097 * 86_400

    /// Creates a zone from its offset before the first transition and each
    /// transition's instant and new offset (sorted by instant). Instants after
    /// `coverageEnd` fold back by 400-year cycles; leave it `nil` for a zone whose
    /// table is complete (the last offset then holds forever).
    package init(identifier: String, initialOffset: Int, transitions: [(at: Int, offset: Int)], coverageEnd: Int? = nil) {
        var times: [Int] = []
        var offsets = [initialOffset]
        times.reserveCapacity(transitions.count)
        offsets.reserveCapacity(transitions.count + 1)
        for transition in transitions.sorted(by: { $0.at < $1.at }) where transition.offset != offsets.last {
            times.append(transition.at)
            offsets.append(transition.offset)
        }
        var counts: [Int32] = []
        // No index for a table spread over more than ~140,000 years (a
        // VTIMEZONE with absurd dates): it falls back to the binary search.
        if let first = times.first, let last = times.last, (last - first) >> Self.bucketShift < 1 << 20 {
            counts.reserveCapacity((last - first) >> Self.bucketShift + 1)
            var index = 0
            for bucket in 0...((last - first) >> Self.bucketShift) {
                let bucketStart = first + bucket << Self.bucketShift
                while index < times.count && times[index] < bucketStart { index += 1 }
                counts.append(Int32(index))
            }
        }
        var next = [Int32](repeating: Int32(times.count), count: times.count + 1)
        for index in stride(from: times.count - 1, through: 0, by: -1) {
            let transition = Transition(at: times[index], offsetBefore: offsets[index], offsetAfter: offsets[index + 1])
            next[index] = transition.leavesMidnightAlone ? next[index + 1] : Int32(index)
        }
        storage = Storage(identifier: identifier, transitionTimes: times, offsets: offsets, indexes: counts + next)
        self.coverageEnd = coverageEnd ?? Int.max
        bucketCount = counts.count
        yearKindsFrom = Self.yearKindsStart(times: times, offsets: offsets, coverageEnd: self.coverageEnd)
    }

    /// A zone with one fixed offset.
    public static func fixed(offset: Int, identifier: String? = nil) -> ZoneRules {
        ZoneRules(identifier: identifier ?? (offset == 0 ? "UTC" : "UTC\(offset >= 0 ? "+" : "-")\(abs(offset))s"),
                  initialOffset: offset, transitions: [])
    }

    /// UTC.
    public static let utc = ZoneRules.fixed(offset: 0, identifier: "UTC")

    public var description: String { identifier }

    public static func == (lhs: ZoneRules, rhs: ZoneRules) -> Bool {
        if lhs.storage === rhs.storage { return true }
        return lhs.identifier == rhs.identifier && lhs.offsets.elementsEqual(rhs.offsets)
            && lhs.transitionTimes.elementsEqual(rhs.transitionTimes)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
        hasher.combine(transitionTimes.count)
    }
}

// MARK: - Instants to wall times

extension ZoneRules {
    /// The offset from UTC, in seconds, at an instant (epoch seconds).
    /// - Complexity: O(log t) in the number of transitions t.
    @inlinable
    @_spi(Internals) public func offset(atUTC seconds: Int) -> Int {
        var seconds = seconds
        if seconds >= coverageEnd {
            let cycles = (seconds - coverageEnd) / Self.cycleSeconds + 1
            seconds -= cycles * Self.cycleSeconds
        }
        // The number of transitions at or before `seconds`: from the bucket's
        // count when it has one, else by binary search (before the first
        // transition, or after the last).
        let times = transitionTimes
        if let first = times.first, seconds >= first {
            let bucket = (seconds - first) >> Self.bucketShift
            if bucket < bucketCount {
                var index = Int(indexes[bucket])
                while index < times.count && times[index] <= seconds { index += 1 }
                return offsets[index]
            }
        }
        var low = 0, high = times.count
        while low < high {
            let middle = (low + high) >> 1
            if times[middle] <= seconds { low = middle + 1 } else { high = middle }
        }
        return offsets[low]
    }

    /// The wall time at an instant.
    @inlinable
    @_spi(Internals) public func localTime(atUTC seconds: Int) -> LocalDateTime {
        LocalDateTime(localSeconds: seconds + offset(atUTC: seconds))
    }
}

// MARK: - Wall times to instants

extension ZoneRules {
    /// Every way `local` maps to an instant.
    /// - Complexity: O(log t).
    package func resolve(_ local: LocalDateTime) -> LocalTimeResolution {
        let wall = local.localSeconds
        // Offsets lie within ±26 h, so the instants that can show this wall time
        // lie within a day and a bit of `wall` read as UTC; every offset in force
        // in that window is a candidate. (Walked with `firstTransition(after:)`
        // rather than collected: near a transition this ran for every step of a
        // long search in a zone with daylight time, and its sets and arrays were
        // a twentieth of such searches.)
        let windowStart = wall - 100_000, windowEnd = wall + 100_000
        let before = offset(atUTC: windowStart)
        let after = offset(atUTC: windowEnd)
        if before == after, offset(atUTC: wall - before) == before, !hasTransition(from: windowStart, through: windowEnd) {
            return .unique(wall - before)
        }
        // The distinct instants showing `wall`: how many (0, 1, or more), the first and the last.
        var count = 0, first = Int.max, last = Int.min
        func consider(_ offset: Int) {
            let instant = wall - offset
            guard self.offset(atUTC: instant) == offset, instant != first, instant != last else { return }
            count += 1
            first = min(first, instant)
            last = max(last, instant)
        }
        consider(before)
        consider(after)
        forEachTransition(from: windowStart, through: windowEnd) { transition in
            consider(transition.offsetBefore)
            consider(transition.offsetAfter)
        }
        switch count {
        case 0:
            // A gap: the transition whose jump skips over `wall`.
            var gap: LocalTimeResolution?
            forEachTransition(from: windowStart, through: windowEnd) { transition in
                if gap == nil, transition.offsetAfter > transition.offsetBefore,
                   wall >= transition.at + transition.offsetBefore, wall < transition.at + transition.offsetAfter {
                    gap = .skipped(transition: transition.at, offsetBefore: transition.offsetBefore, offsetAfter: transition.offsetAfter)
                }
            }
            // Unreachable for a consistent table; answer as the offset before would.
            return gap ?? .skipped(transition: wall - before, offsetBefore: before, offsetAfter: after)
        case 1:
            return .unique(first)
        default:
            return .repeated(first: first, second: last)
        }
    }

    /// Calls `body` with each transition in [start, end], in order (as
    /// `transitions(between:and:)` lists them, without the list).
    private func forEachTransition(from start: Int, through end: Int, _ body: (Transition) -> Void) {
        var after = start - 1
        while let transition = firstTransition(after: after), transition.at <= end {
            body(transition)
            after = transition.at
        }
    }

    /// The instant of a wall time by RFC 5545 §3.3.5: a time that happens twice
    /// is the first; a time in a gap is shifted forward by the length of the gap
    /// (02:30 in a 02:00→03:00 spring-forward is 03:30).
    package func instant(of local: LocalDateTime) -> Int {
        switch resolve(local) {
        case .unique(let instant): return instant
        case .repeated(let first, _): return first
        case .skipped(_, let offsetBefore, _): return local.localSeconds - offsetBefore
        }
    }

    /// A transition: the instant and the offsets on either side.
    package struct Transition: Sendable, Hashable {
        /// The instant of the change, epoch seconds.
        package var at: Int
        /// The UTC offset in seconds before the change.
        package var offsetBefore: Int
        /// The UTC offset in seconds from the change on.
        package var offsetAfter: Int
    }

    /// The transitions in [start, end], folding instants after the table's end.
    package func transitions(between start: Int, and end: Int) -> [Transition] {
        var found: [Transition] = []
        var shift = 0
        var (start, end) = (start, end)
        if start >= coverageEnd {
            let cycles = (start - coverageEnd) / Self.cycleSeconds + 1
            shift = cycles * Self.cycleSeconds
            start -= shift
            end -= shift
        }
        var index = firstTransitionIndex(atOrAfter: start)
        let times = transitionTimes, offsets = offsets
        while index < times.count, times[index] <= end {
            found.append(Transition(at: times[index] + shift, offsetBefore: offsets[index], offsetAfter: offsets[index + 1]))
            index += 1
        }
        if end >= coverageEnd, shift == 0 {
            // The window runs past the table's end: continue in the folded copy.
            found += transitions(between: max(start, coverageEnd), and: end).filter { $0.at >= coverageEnd }
        }
        return found
    }

    /// Whether a transition falls in [start, end].
    private func hasTransition(from start: Int, through end: Int) -> Bool {
        firstTransition(after: start - 1).map { $0.at <= end } ?? false
    }

    private func firstTransitionIndex(atOrAfter seconds: Int) -> Int {
        let times = transitionTimes
        var low = 0, high = times.count
        while low < high {
            let middle = (low + high) >> 1
            if times[middle] < seconds { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

// MARK: - IANA zones

extension ZoneRules {
    /// 1800-01-01T00:00:00Z and 2500-01-01T00:00:00Z: the span read from Foundation.
    static let tableStart = -5_364_662_400
    static let tableEnd = 16_725_225_600

    private static let cache = Mutex<[String: ZoneRules]>([:])

    /// The rules of an IANA zone (`Europe/Berlin`), read once from Foundation's
    /// time-zone data and cached.
    /// - Throws: `DataError` for a name Foundation does not know.
    public static func named(_ identifier: String) throws(DataError) -> ZoneRules {
        if let cached = cache.withLock({ $0[identifier] }) { return cached }
        guard let zone = TimeZone(identifier: identifier) else {
            throw DataError("unknown time zone '\(identifier)' (expected an IANA name such as Europe/Berlin)")
        }
        let rules = ZoneRules(zone)
        cache.withLock { $0[identifier] = rules }
        return rules
    }

    /// The rules of a Foundation zone: every offset change between 1800 and 2500.
    public init(_ zone: TimeZone) {
        var transitions: [(at: Int, offset: Int)] = []
        var cursor = Date(timeIntervalSince1970: Double(Self.tableStart))
        let end = Date(timeIntervalSince1970: Double(Self.tableEnd))
        let initial = zone.secondsFromGMT(for: cursor)
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next < end {
            transitions.append((Int(next.timeIntervalSince1970), zone.secondsFromGMT(for: next)))
            cursor = next
        }
        self.init(identifier: zone.identifier, initialOffset: initial, transitions: transitions,
                  coverageEnd: transitions.isEmpty ? nil : Self.tableEnd)
    }
}
