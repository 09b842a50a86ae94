/// A VTIMEZONE of a calendar file (RFC 5545 §3.6.5), expanded exactly into a
/// table of offset changes by our own recurrence engine: every onset of every
/// STANDARD and DAYLIGHT observance (its DTSTART, its RDATEs and the instances
/// of its RRULEs), each turning the offset to its TZOFFSETTO.
///
/// The table runs from the first onset to two 400-year Gregorian cycles after
/// the last change that is not a repetition (the last DTSTART, RDATE, UNTIL or
/// COUNT end); after that, the open-ended yearly rules repeat every 400 years,
/// and `ZoneRules` folds later instants back by whole cycles. An Outlook zone
/// (`DTSTART:16010101…`, two yearly rules) is about 1,600 entries.
///
/// Work follows the years, not the rules' density: an observance whose rule
/// changes the offset more than `limits.maximumZoneChangesPerYear` times in a
/// year (`RRULE:FREQ=HOURLY`) has that rule left out with a warning, identical
/// observances and rules count once, and a table past `limits.maximumZoneChanges`
/// is given up for the system zone of that name.
struct ICSVTimeZone {
    /// One STANDARD or DAYLIGHT sub-component.
    struct Observance: Hashable {
        /// DTSTART: the first onset, a wall time in `offsetFrom`.
        var start: LocalDateTime
        /// TZOFFSETFROM, TZOFFSETTO: seconds east of UTC.
        var offsetFrom: Int
        var offsetTo: Int
        var rules: [RecurrenceRule]
        /// RDATE onsets as instants (local ones read in `offsetFrom`).
        var dates: [Int]
        var line: Int
    }

    var tzid: String
    var observances: [Observance]

    /// Reads `component`; `warn` hears of each observance or rule left out.
    init(_ component: ICSComponentText, tzid: String, warn: (ICSWarning.Kind, Int) -> Void) {
        self.tzid = tzid
        var observances: [Observance] = []
        for child in component.children where child.name == "STANDARD" || child.name == "DAYLIGHT" {
            func skip(_ why: String) { warn(.badTimeZone(tzid, reason: "\(child.name) of line \(child.line) \(why); skipped it"), child.line) }
            guard let startText = child.first("DTSTART")?.value.trimmingSpaces,
                  let start = ICSTime.parse(Substring(startText), zone: .utc, dateOnly: false) else {
                skip("has no DTSTART date-time")
                continue
            }
            guard let from = child.first("TZOFFSETFROM").flatMap({ Self.offset($0.value) }),
                  let to = child.first("TZOFFSETTO").flatMap({ Self.offset($0.value) }) else {
                skip("has no TZOFFSETFROM and TZOFFSETTO of the form ±HHMM[SS]")
                continue
            }
            var rules: [RecurrenceRule] = []
            for property in child.all("RRULE") {
                let reading = RecurrenceRule.parsingLeniently(property.value)
                if let rule = reading.rule, reading.ignored.isEmpty { if !rules.contains(rule) { rules.append(rule) }; continue }
                warn(.badTimeZone(tzid, reason: "RRULE of \(child.name) cannot be read (\(reading.failure ?? reading.ignored.map(\.reason).joined(separator: "; "))); ignored it"), property.line)
            }
            var dates: [Int] = []
            for property in child.all("RDATE") {
                for item in property.value.split(separator: ",") {
                    let text = item.trimmingSpaces
                    guard let time = ICSTime.parse(Substring(text), zone: .utc, dateOnly: false) else {
                        warn(.badValue(property: "RDATE", value: text), property.line)
                        continue
                    }
                    // Onsets are local times (§3.6.5); a UTC one is taken as written.
                    dates.append(time.local.localSeconds - (text.last == "Z" || text.last == "z" ? 0 : from))
                }
            }
            let observance = Observance(start: start.local, offsetFrom: from, offsetTo: to, rules: rules, dates: dates, line: child.line)
            if !observances.contains(observance) { observances.append(observance) }
        }
        self.observances = observances
    }

    /// `±HHMM` or `±HHMMSS` (RFC 5545 §3.3.14) in seconds; nil when malformed.
    static func offset(_ text: String) -> Int? {
        let bytes = Array(text.trimmingSpaces.utf8)
        guard bytes.count == 5 || bytes.count == 7, bytes[0] == 0x2B || bytes[0] == 0x2D,
              bytes.dropFirst().allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        func pair(_ index: Int) -> Int { Int(bytes[index] - 0x30) * 10 + Int(bytes[index + 1] - 0x30) }
        let hours = pair(1), minutes = pair(3), seconds = bytes.count == 7 ? pair(5) : 0
        guard hours < 24, minutes < 60, seconds < 60 else { return nil }
        return (bytes[0] == 0x2D ? -1 : 1) * (hours * 3600 + minutes * 60 + seconds)
    }

    /// 400 Gregorian years in seconds: the period of every open-ended yearly rule.
    static let cycle = 146_097 * 86_400

    /// The zone's table, or nil when it has no usable observance or too many
    /// changes. Before its first onset the zone follows `system` (the system's
    /// zone of the same IANA or Windows name) when there is one, else the first
    /// onset's TZOFFSETFROM.
    func rules(system: ZoneRules?, limits: ICSLimits, warn: (ICSWarning.Kind, Int) -> Void) -> ZoneRules? {
        guard !observances.isEmpty else { return nil }
        // The last change that does not repeat: DTSTARTs, RDATEs, UNTILs.
        var lastChange = Int.min
        var periodic = true
        var open = false
        for observance in observances {
            lastChange = max(lastChange, observance.start.localSeconds - observance.offsetFrom, observance.dates.max() ?? .min)
            for rule in observance.rules {
                switch rule.end {
                case .never:
                    open = true
                    // Only these repeat exactly after 400 years; others are expanded to 2500.
                    periodic = periodic && ((rule.frequency == .yearly && 400 % rule.interval == 0)
                        || (rule.frequency == .monthly && 4_800 % rule.interval == 0))
                case .until(.instant(let until)): lastChange = max(lastChange, until)
                case .until(.local(let wall)), .until(.date(let wall)): lastChange = max(lastChange, wall.localSeconds + 86_400 - observance.offsetFrom)
                case .count: break  // its end is found by expanding it, below
                }
            }
        }
        // Expanding the rules that end (COUNT) first moves `lastChange` to their end.
        var onsets: [(at: Int, offset: Int, order: Int)] = []
        for (index, observance) in observances.enumerated() {
            onsets.append((observance.start.localSeconds - observance.offsetFrom, observance.offsetTo, index))
            for date in observance.dates { onsets.append((date, observance.offsetTo, index)) }
        }
        for (index, observance) in observances.enumerated() {
            for rule in observance.rules {
                guard case .count = rule.end else { continue }
                guard let found = expand(rule, of: observance, index: index, through: .max, limits: limits, into: &onsets, warn: warn) else { return nil }
                lastChange = max(lastChange, found)
            }
        }
        // Open rules run to two cycles past the last change (or to 2500 when
        // they do not repeat every 400 years); UNTIL rules to their end.
        let (twoCyclesOn, overflow) = lastChange.addingReportingOverflow(2 * Self.cycle)
        let tableEnd = !open ? Int.max : periodic ? (overflow ? Int.max : twoCyclesOn) : max(lastChange, 16_725_225_600)
        for (index, observance) in observances.enumerated() {
            for rule in observance.rules {
                if case .count = rule.end { continue }
                guard expand(rule, of: observance, index: index, through: tableEnd, limits: limits, into: &onsets, warn: warn) != nil else { return nil }
            }
        }
        if onsets.count > limits.maximumZoneChanges {
            warn(.badTimeZone(tzid, reason: "more than \(limits.maximumZoneChanges) offset changes; used the system zone of that name, if any, else floating time"), observances[0].line)
            return nil
        }
        // Onsets at the same instant: the later observance in the file wins.
        onsets.sort { ($0.at, $0.order) < ($1.at, $1.order) }
        var transitions: [(at: Int, offset: Int)] = []
        for onset in onsets {
            if transitions.last?.at == onset.at { transitions[transitions.count - 1] = (onset.at, onset.offset) } else { transitions.append((onset.at, onset.offset)) }
        }
        let first = transitions[0].at
        let firstFrom = observances.first { $0.start.localSeconds - $0.offsetFrom == first }?.offsetFrom
            ?? observances.min { $0.start.localSeconds - $0.offsetFrom < $1.start.localSeconds - $1.offsetFrom }!.offsetFrom
        var initial = firstFrom
        if let system {
            // Before the file's first onset, the system's rules for that name.
            let table = system.transitionTable
            initial = table.initialOffset
            transitions = table.transitions.filter { $0.at < first } + transitions
        }
        return ZoneRules(identifier: tzid, initialOffset: initial, transitions: transitions,
                         coverageEnd: open && periodic ? tableEnd : nil)
    }

    /// Appends the onsets of one rule up to `end` (an instant); returns the last
    /// onset's instant (`Int.min` when there was none), or nil after warning
    /// when the table would pass `maximumZoneChanges`. A rule that changes the
    /// offset more than `maximumZoneChangesPerYear` times in a year is left out
    /// (`Int.min` too).
    private func expand(_ rule: RecurrenceRule, of observance: Observance, index: Int, through end: Int, limits: ICSLimits,
                        into onsets: inout [(at: Int, offset: Int, order: Int)], warn: (ICSWarning.Kind, Int) -> Void) -> Int? {
        let before = onsets.count
        var year = Int.min, inYear = 0
        var last = Int.min
        for wall in rule.instances(startingAt: observance.start, in: .fixed(offset: observance.offsetFrom)) {
            let instant = wall.localSeconds - observance.offsetFrom
            if instant > end { break }
            let wallYear = wall.fields.year
            if wallYear == year {
                inYear += 1
                if inYear > limits.maximumZoneChangesPerYear {
                    onsets.removeSubrange(before...)
                    warn(.badTimeZone(tzid, reason: "the RRULE of the observance of line \(observance.line) changes the offset more than \(limits.maximumZoneChangesPerYear) times in \(wallYear); ignored the rule"), observance.line)
                    return Int.min
                }
            } else {
                year = wallYear
                inYear = 1
            }
            onsets.append((instant, observance.offsetTo, index))
            last = instant
            if onsets.count > limits.maximumZoneChanges {
                warn(.badTimeZone(tzid, reason: "more than \(limits.maximumZoneChanges) offset changes; used the system zone of that name, if any, else floating time"), observance.line)
                return nil
            }
        }
        // Not `end` when nothing was found: a COUNT rule is expanded through
        // `Int.max`, and its end is added to (a 6th Wednesday never comes).
        return last
    }
}
