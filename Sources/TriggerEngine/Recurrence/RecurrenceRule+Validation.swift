extension RecurrenceRule {
    /// One thing RFC 5545 §3.3.10 forbids in a rule, and the part to leave out
    /// to get rid of it.
    struct Violation: Sendable, Hashable {
        /// The rule part at fault (`BYWEEKNO`, `BYSETPOS`, …).
        var part: String
        /// What is wrong, for the error or the warning.
        var message: String
    }

    /// Every range and combination RFC 5545 §3.3.10 forbids, in the order
    /// `validate()` reports them.
    func violations() -> [Violation] {
        var found: [Violation] = []
        func check(_ name: String, _ values: [Int], _ range: ClosedRange<Int>, signed: Bool) {
            for value in values {
                let ok = signed ? (value != 0 && range.contains(abs(value))) : range.contains(value)
                if !ok {
                    let expected = signed ? "±\(range.lowerBound)…\(range.upperBound)" : "\(range.lowerBound)…\(range.upperBound)"
                    found.append(Violation(part: name, message: "\(name)=\(value) is not allowed (expected \(expected))"))
                    return
                }
            }
        }
        if interval < 1 {
            found.append(Violation(part: "INTERVAL", message: "INTERVAL=\(interval) is not allowed (expected a positive integer)"))
        }
        if case .count(let count) = end, count < 1 {
            found.append(Violation(part: "COUNT", message: "COUNT=\(count) is not allowed (expected a positive integer)"))
        }
        check("BYSECOND", bySecond, 0...60, signed: false)
        check("BYMINUTE", byMinute, 0...59, signed: false)
        check("BYHOUR", byHour, 0...23, signed: false)
        check("BYMONTHDAY", byMonthDay, 1...31, signed: true)
        check("BYYEARDAY", byYearDay, 1...366, signed: true)
        check("BYWEEKNO", byWeekNo, 1...53, signed: true)
        check("BYMONTH", byMonth, 1...12, signed: false)
        check("BYSETPOS", bySetPos, 1...366, signed: true)
        for day in byDay {
            guard let ordinal = day.ordinal else { continue }
            if ordinal == 0 || abs(ordinal) > 53 {
                found.append(Violation(part: "BYDAY", message: "BYDAY=\(day) is not allowed (expected an ordinal in ±1…53)"))
            } else if frequency != .monthly && frequency != .yearly {
                // §3.3.10: "The BYDAY rule part MUST NOT be specified with a numeric
                // value when the FREQ rule part is not set to MONTHLY or YEARLY" …
                found.append(Violation(part: "BYDAY", message: "BYDAY=\(day) is not allowed with FREQ=\(frequency.name) (an ordinal needs MONTHLY or YEARLY)"))
            } else if !byWeekNo.isEmpty {
                // … "or with a numeric value in the BYDAY rule part with the FREQ rule
                // part set to YEARLY when the BYWEEKNO rule part is specified."
                found.append(Violation(part: "BYDAY", message: "BYDAY=\(day) is not allowed with BYWEEKNO (an ordinal weekday cannot be combined with week numbers)"))
            } else {
                continue
            }
            break
        }
        // The N/A cells of the expand/limit table.
        if !byWeekNo.isEmpty, frequency != .yearly {
            found.append(Violation(part: "BYWEEKNO", message: "BYWEEKNO is only allowed with FREQ=YEARLY, not FREQ=\(frequency.name)"))
        }
        if !byYearDay.isEmpty, [.daily, .weekly, .monthly].contains(frequency) {
            found.append(Violation(part: "BYYEARDAY", message: "BYYEARDAY is not allowed with FREQ=\(frequency.name)"))
        }
        if !byMonthDay.isEmpty, frequency == .weekly {
            found.append(Violation(part: "BYMONTHDAY", message: "BYMONTHDAY is not allowed with FREQ=WEEKLY"))
        }
        // §3.3.10: BYSETPOS "MUST only be used in conjunction with another BYxxx rule part".
        if !bySetPos.isEmpty, bySecond.isEmpty, byMinute.isEmpty, byHour.isEmpty, byDay.isEmpty, byMonthDay.isEmpty,
           byYearDay.isEmpty, byWeekNo.isEmpty, byMonth.isEmpty {
            found.append(Violation(part: "BYSETPOS", message: "BYSETPOS needs another BY-part to select from"))
        }
        return found
    }

    /// Checks every range and every combination RFC 5545 §3.3.10 forbids.
    func validate() throws(DataError) {
        if let first = violations().first { throw DataError("RRULE: \(first.message)") }
    }
}
