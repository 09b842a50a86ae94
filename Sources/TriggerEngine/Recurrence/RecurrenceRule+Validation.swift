extension RecurrenceRule {
    /// Checks every range and every combination RFC 5545 §3.3.10 forbids.
    func validate() throws(DataError) {
        func fail(_ message: String) -> DataError { DataError("RRULE: \(message)") }
        func check(_ name: String, _ values: [Int], _ range: ClosedRange<Int>, signed: Bool) throws(DataError) {
            for value in values {
                let ok = signed ? (value != 0 && range.contains(abs(value))) : range.contains(value)
                if !ok {
                    let expected = signed ? "±\(range.lowerBound)…\(range.upperBound)" : "\(range.lowerBound)…\(range.upperBound)"
                    throw fail("\(name)=\(value) is not allowed (expected \(expected))")
                }
            }
        }
        guard interval >= 1 else { throw fail("INTERVAL=\(interval) is not allowed (expected a positive integer)") }
        switch end {
        case .count(let count) where count < 1:
            throw fail("COUNT=\(count) is not allowed (expected a positive integer)")
        default: break
        }
        try check("BYSECOND", bySecond, 0...60, signed: false)
        try check("BYMINUTE", byMinute, 0...59, signed: false)
        try check("BYHOUR", byHour, 0...23, signed: false)
        try check("BYMONTHDAY", byMonthDay, 1...31, signed: true)
        try check("BYYEARDAY", byYearDay, 1...366, signed: true)
        try check("BYWEEKNO", byWeekNo, 1...53, signed: true)
        try check("BYMONTH", byMonth, 1...12, signed: false)
        try check("BYSETPOS", bySetPos, 1...366, signed: true)
        for day in byDay {
            if let ordinal = day.ordinal {
                guard ordinal != 0, abs(ordinal) <= 53 else {
                    throw fail("BYDAY=\(day) is not allowed (expected an ordinal in ±1…53)")
                }
                // §3.3.10: "The BYDAY rule part MUST NOT be specified with a numeric
                // value when the FREQ rule part is not set to MONTHLY or YEARLY" …
                guard frequency == .monthly || frequency == .yearly else {
                    throw fail("BYDAY=\(day) is not allowed with FREQ=\(frequency.name) (an ordinal needs MONTHLY or YEARLY)")
                }
                // … "or with a numeric value in the BYDAY rule part with the FREQ rule
                // part set to YEARLY when the BYWEEKNO rule part is specified."
                guard byWeekNo.isEmpty else {
                    throw fail("BYDAY=\(day) is not allowed with BYWEEKNO (an ordinal weekday cannot be combined with week numbers)")
                }
            }
        }
        // The N/A cells of the expand/limit table.
        if !byWeekNo.isEmpty, frequency != .yearly {
            throw fail("BYWEEKNO is only allowed with FREQ=YEARLY, not FREQ=\(frequency.name)")
        }
        if !byYearDay.isEmpty, [.daily, .weekly, .monthly].contains(frequency) {
            throw fail("BYYEARDAY is not allowed with FREQ=\(frequency.name)")
        }
        if !byMonthDay.isEmpty, frequency == .weekly {
            throw fail("BYMONTHDAY is not allowed with FREQ=WEEKLY")
        }
        // §3.3.10: BYSETPOS "MUST only be used in conjunction with another BYxxx rule part".
        if !bySetPos.isEmpty, bySecond.isEmpty, byMinute.isEmpty, byHour.isEmpty, byDay.isEmpty, byMonthDay.isEmpty,
           byYearDay.isEmpty, byWeekNo.isEmpty, byMonth.isEmpty {
            throw fail("BYSETPOS needs another BY-part to select from")
        }
    }
}
