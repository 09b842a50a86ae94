extension RecurrenceRule {
    /// Parses RFC 5545 §3.3.10 text: `FREQ=MONTHLY;BYDAY=-1FR;COUNT=5`, with or
    /// without a leading `RRULE:`. Names and values are case-insensitive
    /// (RFC 5545 §3.1); parts may come in any order, each at most once; a
    /// trailing `;` after the last part is accepted (exporters write one).
    /// UNTIL takes `YYYYMMDD`, `YYYYMMDDTHHMMSS` or `YYYYMMDDTHHMMSSZ`.
    ///
    /// - Throws: `DataError` naming the bad part, e.g.
    ///   `RRULE: BYSETPOS=0 is not allowed (expected ±1…366)`.
    public init(parsing text: String) throws(DataError) {
        let parts = try Parts(text, lenient: false) { (_, message) throws(DataError) in throw DataError("RRULE: \(message)") }
        self = try parts.rule()
    }

    /// A part the lenient reader left out, and why.
    public struct IgnoredPart: Sendable, Hashable {
        /// The part as written (`BYDAYS=MO`), or its name for a combination RFC 5545 forbids.
        public var part: String
        /// What is wrong with it.
        public var reason: String
    }

    /// What `parsingLeniently` made of a rule's text.
    public struct LenientReading: Sendable {
        /// The rule without the parts it could not use; `nil` when none is left
        /// (no FREQ, a non-Gregorian RSCALE).
        public var rule: RecurrenceRule?
        /// The parts left out: unknown, given twice, out of range, or in a
        /// combination RFC 5545 forbids.
        public var ignored: [IgnoredPart]
        /// Why there is no rule, when `rule` is `nil`.
        public var failure: String?
    }

    /// Reads a rule the way calendar clients do: a part that is unknown,
    /// misspelt, given twice, out of range or in a forbidden combination is left
    /// out and reported; escaped separators (`\\;`, `\\,`) and spaces around
    /// list items are accepted. Of COUNT and UNTIL together, COUNT is kept.
    /// - Complexity: O(length of the text).
    public static func parsingLeniently(_ text: String) -> LenientReading {
        // Nearly every rule is well formed: the strict reader, without the bookkeeping, first.
        if let rule = try? RecurrenceRule(parsing: text) { return LenientReading(rule: rule, ignored: [], failure: nil) }
        var ignored: [IgnoredPart] = []
        let unescaped = text.replacingBackslashEscapes()
        do {
            var parts = try Parts(unescaped, lenient: true) { (part, message) throws(DataError) in
                ignored.append(IgnoredPart(part: part, reason: message))
            }
            if parts.frequency == nil { return LenientReading(rule: nil, ignored: ignored, failure: "FREQ is missing") }
            if parts.count != nil, parts.until != nil {
                ignored.append(IgnoredPart(part: "UNTIL", reason: "COUNT and UNTIL cannot both be given"))
                parts.until = nil
            }
            // Leave out one offending part at a time until nothing is forbidden.
            while true {
                let rule = try parts.rule(checked: false)
                guard let violation = rule.violations().first else { return LenientReading(rule: rule, ignored: ignored, failure: nil) }
                ignored.append(IgnoredPart(part: violation.part, reason: violation.message))
                parts.remove(violation.part)
            }
        } catch {
            return LenientReading(rule: nil, ignored: ignored, failure: error.message.hasPrefix("RRULE: ") ? String(error.message.dropFirst(7)) : error.message)
        }
    }

    /// The parts of a rule's text, read one at a time; `report` decides what a
    /// bad part does (the strict reader throws, the lenient one notes it and
    /// goes on without the part).
    struct Parts {
        var frequency: Frequency?
        var interval = 1
        var count: Int?
        var until: Until?
        var lists: [String: [Int]] = [:]
        var byDay: [WeekdayNumber] = []
        var weekStart = Weekday.monday

        init(_ text: String, lenient: Bool, report: (String, String) throws(DataError) -> Void) throws(DataError) {
            var body = Substring(text.trimmingASCIIWhitespace())
            if body.uppercased().hasPrefix("RRULE:") { body = body.dropFirst(6) }
            guard !body.isEmpty else { throw DataError("RRULE: empty rule (expected FREQ=…)") }
            var pieces = body.split(separator: ";", omittingEmptySubsequences: false)
            if pieces.count > 1, pieces.last?.isEmpty == true { pieces.removeLast() }
            var seen = Set<String>()
            func items(_ value: String) -> [Substring] {
                value.split(separator: ",", omittingEmptySubsequences: false).map { lenient ? $0.trimmingASCIIWhitespace() : $0 }
            }
            for piece in pieces {
                let part = String(piece)
                guard let equals = piece.firstIndex(of: "=") else {
                    try report(part, "'\(piece)' is not a NAME=VALUE part")
                    continue
                }
                let name = String(piece[..<equals].trimmingASCIIWhitespace()).uppercased()
                let value = String(piece[piece.index(after: equals)...])
                guard seen.insert(name).inserted else { try report(part, "\(name) is given twice"); continue }
                guard !value.isEmpty else { try report(part, "\(name) has no value"); continue }
                switch name {
                case "FREQ":
                    guard let found = Frequency.allCases.first(where: { $0.name == value.uppercased() }) else {
                        throw DataError("RRULE: FREQ=\(value) is not a frequency (expected SECONDLY, MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY)")
                    }
                    frequency = found
                case "INTERVAL":
                    guard let number = RecurrenceRule.integer(value), number >= 1 else {
                        try report(part, "INTERVAL=\(value) is not allowed (expected a positive integer)")
                        continue
                    }
                    interval = number
                case "COUNT":
                    guard let number = RecurrenceRule.integer(value), number >= 1 else {
                        try report(part, "COUNT=\(value) is not allowed (expected a positive integer)")
                        continue
                    }
                    count = number
                case "UNTIL":
                    guard let parsed = RecurrenceRule.until(value) else {
                        try report(part, "UNTIL=\(value) is not a date or date-time (expected YYYYMMDD, YYYYMMDDTHHMMSS or YYYYMMDDTHHMMSSZ)")
                        continue
                    }
                    until = parsed
                case "BYSECOND", "BYMINUTE", "BYHOUR", "BYMONTHDAY", "BYYEARDAY", "BYWEEKNO", "BYMONTH", "BYSETPOS":
                    var numbers: [Int] = []
                    for item in items(value) {
                        guard let number = RecurrenceRule.integer(item) else {
                            try report(part, "\(name)=\(item) is not an integer")
                            numbers = []
                            break
                        }
                        numbers.append(number)
                    }
                    if !numbers.isEmpty { lists[name] = numbers }
                case "BYDAY":
                    var days: [WeekdayNumber] = []
                    for item in items(value) {
                        guard let day = RecurrenceRule.weekdayNumber(item) else {
                            try report(part, "BYDAY=\(item) is not a weekday (expected [±n]SU, MO, TU, WE, TH, FR or SA)")
                            days = []
                            break
                        }
                        days.append(day)
                    }
                    byDay = days
                case "WKST":
                    guard let day = RecurrenceRule.weekday(Substring(value)) else {
                        try report(part, "WKST=\(value) is not a weekday (expected SU, MO, TU, WE, TH, FR or SA)")
                        continue
                    }
                    weekStart = day
                case "RSCALE", "SKIP":
                    throw DataError("RRULE: \(name) (RFC 7529 non-Gregorian recurrence) is not supported")
                default:
                    try report(part, "unknown rule part '\(name)'")
                }
            }
        }

        /// The rule; checked (`validate()`) unless the lenient reader checks it itself.
        func rule(checked: Bool = true) throws(DataError) -> RecurrenceRule {
            guard let frequency else { throw DataError("RRULE: FREQ is missing") }
            let end: End
            switch (count, until) {
            case (nil, nil): end = .never
            case (let count?, nil): end = .count(count)
            case (nil, let until?): end = .until(until)
            case (.some, .some): throw DataError("RRULE: COUNT and UNTIL cannot both be given")
            }
            let rule = RecurrenceRule(unchecked: frequency, interval: interval, end: end,
                                      bySecond: lists["BYSECOND"] ?? [], byMinute: lists["BYMINUTE"] ?? [], byHour: lists["BYHOUR"] ?? [],
                                      byDay: byDay, byMonthDay: lists["BYMONTHDAY"] ?? [], byYearDay: lists["BYYEARDAY"] ?? [],
                                      byWeekNo: lists["BYWEEKNO"] ?? [], byMonth: lists["BYMONTH"] ?? [], bySetPos: lists["BYSETPOS"] ?? [],
                                      weekStart: weekStart)
            if checked { try rule.validate() }
            return rule
        }

        /// Leaves out the part named `name` (a violation's part).
        mutating func remove(_ name: String) {
            switch name {
            case "INTERVAL": interval = 1
            case "COUNT": count = nil
            case "UNTIL": until = nil
            case "BYDAY": byDay = []
            default: lists[name] = nil
            }
        }
    }

    /// An optionally signed decimal integer of at most 9 digits.
    static func integer(_ text: some StringProtocol) -> Int? {
        var digits = Substring(text)
        var sign = 1
        if let first = digits.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits).map { $0 * sign }
    }

    static func weekday(_ text: Substring) -> Weekday? {
        let code = text.uppercased()
        return Weekday.allCases.first { $0.code == code }
    }

    static func weekdayNumber(_ text: Substring) -> WeekdayNumber? {
        guard text.count >= 2, let day = weekday(text.suffix(2)) else { return nil }
        let prefix = text.dropLast(2)
        if prefix.isEmpty { return .every(day) }
        guard let ordinal = integer(prefix) else { return nil }
        return .nth(ordinal, day)
    }

    /// UNTIL's DATE, floating DATE-TIME or UTC DATE-TIME form.
    static func until(_ text: String) -> Until? {
        let bytes = Array(text.utf8)
        func number(_ from: Int, _ length: Int) -> Int? {
            var value = 0
            for index in from..<(from + length) {
                let byte = bytes[index]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard bytes.count == 8 || bytes.count == 15 || bytes.count == 16,
              let year = number(0, 4), let month = number(4, 2), let day = number(6, 2) else { return nil }
        if bytes.count == 8 {
            return LocalDateTime.valid(year: year, month: month, day: day).map(Until.date)
        }
        guard bytes[8] == UInt8(ascii: "T") || bytes[8] == UInt8(ascii: "t"),
              let hour = number(9, 2), let minute = number(11, 2), let second = number(13, 2),
              let wall = LocalDateTime.valid(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        if bytes.count == 15 { return .local(wall) }
        guard bytes[15] == UInt8(ascii: "Z") || bytes[15] == UInt8(ascii: "z") else { return nil }
        return .instant(wall.localSeconds)
    }
}

extension StringProtocol {
    /// The text with `\\;` and `\\,` unescaped: some exporters escape an
    /// RRULE's separators as if it were TEXT (RFC 5545 §3.3.11).
    fileprivate func replacingBackslashEscapes() -> String {
        guard contains("\\") else { return String(self) }
        var result = ""
        var previous: Character?
        for character in self {
            if previous == "\\", character == ";" || character == "," { result.removeLast() }
            result.append(character)
            previous = character
        }
        return result
    }

    /// The text without leading and trailing spaces, tabs and line breaks.
    fileprivate func trimmingASCIIWhitespace() -> SubSequence {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
