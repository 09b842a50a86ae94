import Foundation

/// RFC 3339 instants, the form of every instant the command line reads and writes.
@_spi(Internals) public enum RFC3339 {
    /// Parses `2026-11-22T09:30:00Z`, `2026-11-22T10:30:00+01:00` or
    /// `2026-11-22T09:30:00.250Z` (a space or lower-case `t`/`z` also accepted,
    /// as RFC 3339 §5.6 allows). Returns `nil` for anything else, including a
    /// time without an offset, out-of-range fields and an instant outside
    /// years 1–9999 in UTC (`InstantBounds`: `0001-01-01T00:30:00+01:00` is
    /// year 0).
    package static func date(from text: some StringProtocol) -> Date? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { date(fromBytes: UnsafeBufferPointer($0)) }
    }

    /// The byte-level parser behind `date(from:)`, for readers that hold raw lines.
    package static func date(fromBytes bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard let (seconds, fraction) = epochSeconds(fromBytes: bytes) else { return nil }
        // A Double has 30 µs in year 9999: 9999-12-31T23:59:59.999999Z would
        // round to 10000-01-01, outside the range; it stays just inside.
        return Date(timeIntervalSince1970: min(Double(seconds) + fraction, InstantBounds.seconds.upperBound.nextDown))
    }

    /// Whole epoch seconds and the fraction of a second, or `nil` (also for an
    /// instant outside `InstantBounds`).
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
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        guard InstantBounds.seconds.contains(Double(seconds)) else { return nil }
        return (seconds, fraction)
    }

    /// Formats `date` with the given offset from UTC in seconds (`nil`: UTC
    /// written as `Z`). Fractional seconds appear only when the instant has them,
    /// to the microsecond.
    ///
    /// What is written always reads back as the same instant:
    /// - An offset with seconds (a zone's local mean time before 1900, such as
    ///   New York's −04:56:02) is written rounded to the minute, RFC 3339 having
    ///   no seconds there; the wall time written moves with it.
    /// - When the wall time at the offset would fall outside years 1–9999
    ///   (9999-12-31T23:00:00Z at +14:00), the instant is written in UTC.
    /// - An instant outside `InstantBounds` (which nothing in TriggerEngine
    ///   makes: every reader refuses one, every series ends before) is written
    ///   as the nearest instant inside, never a trap.
    @_spi(Internals) public static func string(from date: Date, utcOffset: Int? = nil) -> String {
        var out: [UInt8] = []
        append(date, utcOffset: utcOffset, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `string(from:utcOffset:)` appended to `out` as UTF-8 bytes, without a
    /// `String` of its own (`next --batch` writes a line per query this way).
    package static func append(_ date: Date, utcOffset: Int? = nil, to out: inout [UInt8]) {
        let seconds = date.timeIntervalSince1970
        // Both edges are whole multiples of 32, which a Double holds exactly there.
        let first = InstantBounds.seconds.lowerBound * 1_000_000, end = InstantBounds.seconds.upperBound * 1_000_000
        let micros = seconds.isNaN ? first : min(max((seconds * 1_000_000).rounded(), first), end)
        let (whole, fractionMicros) = CivilDate.floorDivide(min(Int(micros), Int(end) - 1), 1_000_000)
        append(epochSeconds: whole, microseconds: fractionMicros, utcOffset: utcOffset, to: &out)
    }

    /// Formats whole epoch seconds plus microseconds (0..<1,000,000); see
    /// `string(from:utcOffset:)`.
    @_spi(Internals) public static func string(epochSeconds: Int, microseconds: Int = 0, utcOffset: Int? = nil) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(32)
        append(epochSeconds: epochSeconds, microseconds: microseconds, utcOffset: utcOffset, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `string(epochSeconds:microseconds:utcOffset:)` appended to `out` as UTF-8 bytes.
    package static func append(epochSeconds: Int, microseconds: Int = 0, utcOffset: Int? = nil, to out: inout [UInt8]) {
        let epochSeconds = min(max(epochSeconds, Int(InstantBounds.seconds.lowerBound)), Int(InstantBounds.seconds.upperBound) - 1)
        let microseconds = min(max(microseconds, 0), 999_999)
        var utcOffset = utcOffset.map { offset in
            // To the nearest minute, halves away from zero; at most ±18 h (beyond any zone's).
            let minutes = (Double(offset) / 60).rounded(.toNearestOrAwayFromZero)
            return Int(min(max(minutes, -18 * 60), 18 * 60)) * 60
        }
        if let offset = utcOffset, !InstantBounds.seconds.contains(Double(epochSeconds + offset)) {
            utcOffset = nil
        }
        let local = epochSeconds + (utcOffset ?? 0)
        let (days, secondOfDay) = CivilDate.floorDivide(local, 86_400)
        let (year, month, day) = CivilDate.date(fromDays: days)
        // The text in a buffer of its own, appended once: an append per
        // character, each checking the array's capacity and uniqueness, was
        // most of the time `next --batch` spent writing an instant. The
        // clamping above keeps the year in 1…9999 and every field in range.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: TextBuffer.capacity) { buffer in
            var text = TextBuffer(buffer.baseAddress!)
            text.put(year / 100, nil)
            text.put(year % 100, "-")
            text.put(month, "-")
            text.put(day, "T")
            text.put(secondOfDay / 3600, ":")
            text.put(secondOfDay / 60 % 60, ":")
            text.put(secondOfDay % 60, nil)
            if microseconds != 0 {
                var digits = microseconds
                var width = 6
                while digits % 10 == 0 { digits /= 10; width -= 1 }
                text.put(UInt8(ascii: "."))
                text.putDigits(digits, width)
            }
            if let offset = utcOffset {
                text.put(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
                let magnitude = abs(offset)
                text.put(magnitude / 3600, ":")
                text.put(magnitude / 60 % 60, nil)
            } else {
                text.put(UInt8(ascii: "Z"))
            }
            out.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress!, count: text.count))
        }
    }

    /// Bytes written one after another into room the caller holds (32 bytes:
    /// the longest instant, `9999-12-31T23:59:59.999999+18:00`, takes 32).
    /// Every write is checked against the room: never past it, whatever a
    /// future change to the fields does.
    private struct TextBuffer {
        static let capacity = 32
        let start: UnsafeMutablePointer<UInt8>
        var count = 0

        init(_ start: UnsafeMutablePointer<UInt8>) { self.start = start }

        @inline(__always)
        mutating func put(_ byte: UInt8) {
            precondition(count < Self.capacity, "an RFC 3339 instant longer than 32 bytes")
            start[count] = byte
            count += 1
        }

        /// Two digits of `value` (0…99), then `separator` if any.
        @inline(__always)
        mutating func put(_ value: Int, _ separator: Unicode.Scalar?) {
            put(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value / 10))
            put(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10))
            if let separator { put(UInt8(ascii: separator)) }
        }

        /// `value` (0…999,999) in `width` digits, zero-padded.
        @inline(__always)
        mutating func putDigits(_ value: Int, _ width: Int) {
            precondition(width >= 0 && count + width <= Self.capacity, "an RFC 3339 instant longer than 32 bytes")
            var value = value
            for position in stride(from: width - 1, through: 0, by: -1) {
                start[count + position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
                value /= 10
            }
            count += width
        }
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
