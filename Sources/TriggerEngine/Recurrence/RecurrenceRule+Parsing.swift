extension RecurrenceRule {
    /// Parses RFC 5545 §3.3.10 text: `FREQ=MONTHLY;BYDAY=-1FR;COUNT=5`, with or
    /// without a leading `RRULE:`. Names and values are case-insensitive
    /// (RFC 5545 §3.1); parts may come in any order, each at most once.
    /// UNTIL takes `YYYYMMDD`, `YYYYMMDDTHHMMSS` or `YYYYMMDDTHHMMSSZ`.
    ///
    /// - Throws: `DataError` naming the bad part, e.g.
    ///   `RRULE: BYSETPOS=0 is not allowed (expected ±1…366)`.
    public init(parsing text: String) throws(DataError) {
        func fail(_ message: String) -> DataError { DataError("RRULE: \(message)") }
        var body = Substring(text.trimmingASCIIWhitespace())
        if body.uppercased().hasPrefix("RRULE:") { body = body.dropFirst(6) }
        guard !body.isEmpty else { throw fail("empty rule (expected FREQ=…)") }

        var frequency: Frequency?
        var interval = 1
        var count: Int?
        var until: Until?
        var lists: [String: [Int]] = [:]
        var byDay: [WeekdayNumber] = []
        var weekStart = Weekday.monday
        var seen = Set<String>()

        for part in body.split(separator: ";", omittingEmptySubsequences: false) {
            guard let equals = part.firstIndex(of: "=") else {
                throw fail("'\(part)' is not a NAME=VALUE part")
            }
            let name = part[..<equals].uppercased()
            let value = String(part[part.index(after: equals)...])
            guard seen.insert(name).inserted else { throw fail("\(name) is given twice") }
            guard !value.isEmpty else { throw fail("\(name) has no value") }
            switch name {
            case "FREQ":
                guard let found = Frequency.allCases.first(where: { $0.name == value.uppercased() }) else {
                    throw fail("FREQ=\(value) is not a frequency (expected SECONDLY, MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY)")
                }
                frequency = found
            case "INTERVAL":
                guard let number = Self.integer(value), number >= 1 else {
                    throw fail("INTERVAL=\(value) is not allowed (expected a positive integer)")
                }
                interval = number
            case "COUNT":
                guard let number = Self.integer(value), number >= 1 else {
                    throw fail("COUNT=\(value) is not allowed (expected a positive integer)")
                }
                count = number
            case "UNTIL":
                guard let parsed = Self.until(value) else {
                    throw fail("UNTIL=\(value) is not a date or date-time (expected YYYYMMDD, YYYYMMDDTHHMMSS or YYYYMMDDTHHMMSSZ)")
                }
                until = parsed
            case "BYSECOND", "BYMINUTE", "BYHOUR", "BYMONTHDAY", "BYYEARDAY", "BYWEEKNO", "BYMONTH", "BYSETPOS":
                var numbers: [Int] = []
                for item in value.split(separator: ",", omittingEmptySubsequences: false) {
                    guard let number = Self.integer(item) else {
                        throw fail("\(name)=\(item) is not an integer")
                    }
                    numbers.append(number)
                }
                lists[name] = numbers
            case "BYDAY":
                for item in value.split(separator: ",", omittingEmptySubsequences: false) {
                    guard let day = Self.weekdayNumber(item) else {
                        throw fail("BYDAY=\(item) is not a weekday (expected [±n]SU, MO, TU, WE, TH, FR or SA)")
                    }
                    byDay.append(day)
                }
            case "WKST":
                guard let day = Self.weekday(Substring(value)) else {
                    throw fail("WKST=\(value) is not a weekday (expected SU, MO, TU, WE, TH, FR or SA)")
                }
                weekStart = day
            case "RSCALE", "SKIP":
                throw fail("\(name) (RFC 7529 non-Gregorian recurrence) is not supported")
            default:
                throw fail("unknown rule part '\(name)'")
            }
        }
        guard let frequency else { throw fail("FREQ is missing") }
        let end: End
        switch (count, until) {
        case (nil, nil): end = .never
        case (let count?, nil): end = .count(count)
        case (nil, let until?): end = .until(until)
        case (.some, .some): throw fail("COUNT and UNTIL cannot both be given")
        }
        try self.init(frequency: frequency, interval: interval, end: end,
                      bySecond: lists["BYSECOND"] ?? [], byMinute: lists["BYMINUTE"] ?? [], byHour: lists["BYHOUR"] ?? [],
                      byDay: byDay, byMonthDay: lists["BYMONTHDAY"] ?? [], byYearDay: lists["BYYEARDAY"] ?? [],
                      byWeekNo: lists["BYWEEKNO"] ?? [], byMonth: lists["BYMONTH"] ?? [], bySetPos: lists["BYSETPOS"] ?? [],
                      weekStart: weekStart)
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
            return LocalDateTime(year: year, month: month, day: day).map(Until.date)
        }
        guard bytes[8] == UInt8(ascii: "T") || bytes[8] == UInt8(ascii: "t"),
              let hour = number(9, 2), let minute = number(11, 2), let second = number(13, 2),
              let wall = LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        if bytes.count == 15 { return .local(wall) }
        guard bytes[15] == UInt8(ascii: "Z") || bytes[15] == UInt8(ascii: "z") else { return nil }
        return .instant(wall.localSeconds)
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and line breaks.
    fileprivate func trimmingASCIIWhitespace() -> SubSequence {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
