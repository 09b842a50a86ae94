import Foundation

/// RFC 3339 instants, the form of every instant the command line reads and writes.
public enum RFC3339 {
    /// Parses `2026-11-22T09:30:00Z`, `2026-11-22T10:30:00+01:00` or
    /// `2026-11-22T09:30:00.250Z` (a space or lower-case `t`/`z` also accepted,
    /// as RFC 3339 §5.6 allows). Returns `nil` for anything else, including a
    /// time without an offset and out-of-range fields.
    public static func date(from text: some StringProtocol) -> Date? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { date(fromBytes: UnsafeBufferPointer($0)) }
    }

    /// The byte-level parser behind `date(from:)`, for readers that hold raw lines.
    public static func date(fromBytes bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard let (seconds, fraction) = epochSeconds(fromBytes: bytes) else { return nil }
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// Whole epoch seconds and the fraction of a second, or `nil`.
    package static func epochSeconds(fromBytes bytes: UnsafeBufferPointer<UInt8>) -> (Int, Double)? {
        var reader = DigitReader(bytes: bytes)
        guard let year = reader.number(4), reader.expect(UInt8(ascii: "-")),
              let month = reader.number(2), reader.expect(UInt8(ascii: "-")),
              let day = reader.number(2) else { return nil }
        guard let separator = reader.next(), separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t")
                || separator == UInt8(ascii: " ") else { return nil }
        guard let hour = reader.number(2), reader.expect(UInt8(ascii: ":")),
              let minute = reader.number(2), reader.expect(UInt8(ascii: ":")),
              let second = reader.number(2) else { return nil }
        guard (1...12).contains(month), (1...CivilDate.daysInMonth(year: year, month: month)).contains(day),
              hour < 24, minute < 60, second < 61 else { return nil }
        let fraction = reader.fraction()
        guard let offset = reader.offset(), reader.isAtEnd else { return nil }
        let days = CivilDate.days(year: year, month: month, day: day)
        return (days * 86_400 + hour * 3600 + minute * 60 + second - offset, fraction)
    }

    /// Formats `date` with the given offset from UTC in seconds (`nil`: UTC
    /// written as `Z`). Fractional seconds appear only when the instant has them,
    /// to the microsecond.
    public static func string(from date: Date, utcOffset: Int? = nil) -> String {
        let micros = (date.timeIntervalSince1970 * 1_000_000).rounded()
        let (seconds, fractionMicros) = CivilDate.floorDivide(Int(micros), 1_000_000)
        return string(epochSeconds: seconds, microseconds: fractionMicros, utcOffset: utcOffset)
    }

    /// Formats whole epoch seconds plus microseconds; see `string(from:utcOffset:)`.
    public static func string(epochSeconds: Int, microseconds: Int = 0, utcOffset: Int? = nil) -> String {
        let local = epochSeconds + (utcOffset ?? 0)
        let (days, secondOfDay) = CivilDate.floorDivide(local, 86_400)
        let (year, month, day) = CivilDate.date(fromDays: days)
        var out: [UInt8] = []
        out.reserveCapacity(32)
        appendDigits(&out, year, 4)
        out.append(UInt8(ascii: "-")); appendDigits(&out, month, 2)
        out.append(UInt8(ascii: "-")); appendDigits(&out, day, 2)
        out.append(UInt8(ascii: "T")); appendDigits(&out, secondOfDay / 3600, 2)
        out.append(UInt8(ascii: ":")); appendDigits(&out, secondOfDay / 60 % 60, 2)
        out.append(UInt8(ascii: ":")); appendDigits(&out, secondOfDay % 60, 2)
        if microseconds != 0 {
            var digits = microseconds
            var width = 6
            while digits % 10 == 0 { digits /= 10; width -= 1 }
            out.append(UInt8(ascii: "."))
            appendDigits(&out, digits, width)
        }
        if let offset = utcOffset {
            out.append(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            let magnitude = abs(offset)
            appendDigits(&out, magnitude / 3600, 2)
            out.append(UInt8(ascii: ":"))
            appendDigits(&out, magnitude / 60 % 60, 2)
            if magnitude % 60 != 0 {
                // RFC 3339 has no seconds in offsets; zones with them (LMT) get them anyway.
                out.append(UInt8(ascii: ":"))
                appendDigits(&out, magnitude % 60, 2)
            }
        } else {
            out.append(UInt8(ascii: "Z"))
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func appendDigits(_ out: inout [UInt8], _ value: Int, _ width: Int) {
        var value = value
        if value < 0 { out.append(UInt8(ascii: "-")); value = -value }
        var digits: [UInt8] = []
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(value % 10))
            value /= 10
        } while value > 0
        if digits.count < width { out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - digits.count)) }
        out.append(contentsOf: digits.reversed())
    }
}

/// A cursor over ASCII bytes for the fixed-width fields of RFC 3339.
private struct DigitReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    var isAtEnd: Bool { index == bytes.count }

    mutating func next() -> UInt8? {
        guard index < bytes.count else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func expect(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Exactly `width` decimal digits.
    mutating func number(_ width: Int) -> Int? {
        guard index + width <= bytes.count else { return nil }
        var value = 0
        for _ in 0..<width {
            let digit = Int(bytes[index]) - 48
            guard digit >= 0, digit <= 9 else { return nil }
            value = value * 10 + digit
            index += 1
        }
        return value
    }

    /// An optional `.ddd…` fraction of a second.
    mutating func fraction() -> Double {
        guard index < bytes.count, bytes[index] == UInt8(ascii: ".") else { return 0 }
        index += 1
        var value = 0.0
        var scale = 0.1
        while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
            value += Double(bytes[index] - 48) * scale
            scale /= 10
            index += 1
        }
        return value
    }

    /// `Z`, `z`, or `±hh:mm`, as seconds east of UTC.
    mutating func offset() -> Int? {
        guard let sign = next() else { return nil }
        if sign == UInt8(ascii: "Z") || sign == UInt8(ascii: "z") { return 0 }
        guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
              let hours = number(2), expect(UInt8(ascii: ":")), let minutes = number(2),
              hours < 24, minutes < 60 else { return nil }
        let seconds = hours * 3600 + minutes * 60
        return sign == UInt8(ascii: "-") ? -seconds : seconds
    }
}
