/// Wall times as text.
extension LocalDateTime {
    /// `YYYY-MM-DDTHH:MM:SS`, a wall time, or the same with a trailing `Z` (UTC).
    package static func parsing(_ text: String, field: String) throws(DataError) -> (LocalDateTime, utc: Bool) {
        var body = Substring(text)
        let utc = body.last == "Z" || body.last == "z"
        if utc { body = body.dropLast() }
        let digits = Array(body.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= digits.count else { return nil }
            var value = 0
            for byte in digits[range] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard digits.count == 19, digits[4] == UInt8(ascii: "-"), digits[7] == UInt8(ascii: "-"),
              digits[10] == UInt8(ascii: "T") || digits[10] == UInt8(ascii: "t") || digits[10] == UInt8(ascii: " "),
              digits[13] == UInt8(ascii: ":"), digits[16] == UInt8(ascii: ":"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              let wall = LocalDateTime.valid(year: year, month: month, day: day, hour: hour, minute: minute, second: second) else {
            throw DataError("\(field) '\(text)' is not a local time YYYY-MM-DDTHH:MM:SS (with a trailing Z for UTC)")
        }
        return (wall, utc)
    }
}
