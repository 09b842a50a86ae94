extension RecurrenceRule: CustomStringConvertible {
    /// The rule as RFC 5545 text, parts in a fixed order (FREQ, INTERVAL when not 1,
    /// COUNT or UNTIL, the BY-parts from BYSECOND to BYSETPOS, WKST when not
    /// Monday); `RecurrenceRule(parsing: rule.description) == rule`.
    public var description: String {
        var parts = ["FREQ=\(frequency.name)"]
        if interval != 1 { parts.append("INTERVAL=\(interval)") }
        switch end {
        case .never: break
        case .count(let count): parts.append("COUNT=\(count)")
        case .until(let until): parts.append("UNTIL=\(Self.text(of: until))")
        }
        func list(_ name: String, _ values: [Int]) {
            if !values.isEmpty { parts.append("\(name)=" + values.map(String.init).joined(separator: ",")) }
        }
        list("BYSECOND", bySecond)
        list("BYMINUTE", byMinute)
        list("BYHOUR", byHour)
        if !byDay.isEmpty { parts.append("BYDAY=" + byDay.map(\.description).joined(separator: ",")) }
        list("BYMONTHDAY", byMonthDay)
        list("BYYEARDAY", byYearDay)
        list("BYWEEKNO", byWeekNo)
        list("BYMONTH", byMonth)
        list("BYSETPOS", bySetPos)
        if weekStart != .monday { parts.append("WKST=\(weekStart.code)") }
        return parts.joined(separator: ";")
    }

    /// UNTIL in RFC 5545 basic format: `20261231`, `20261231T090000`, `20261231T140000Z`.
    static func text(of until: Until) -> String {
        func basic(_ seconds: Int) -> String {
            let (year, month, day, hour, minute, second) = LocalDateTime(localSeconds: seconds).fields
            func pad(_ value: Int, _ width: Int) -> String {
                let digits = String(value)
                return String(repeating: "0", count: max(0, width - digits.count)) + digits
            }
            return pad(year, 4) + pad(month, 2) + pad(day, 2) + "T" + pad(hour, 2) + pad(minute, 2) + pad(second, 2)
        }
        switch until {
        case .date(let day): return String(basic(day.localSeconds).prefix(8))
        case .local(let wall): return basic(wall.localSeconds)
        case .instant(let seconds): return basic(seconds) + "Z"
        }
    }
}
