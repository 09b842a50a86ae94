@_spi(Internals) @testable import TriggerEngine
import Foundation

/// `YYYYMMDDTHHMMSS` wall times, the form the oracle reads and writes.
enum RFC5545Text {
    static func wall(_ text: String) -> LocalDateTime {
        let digits = Array(text.utf8).filter { $0 != UInt8(ascii: "T") }.map { Int($0) - 48 }
        func number(_ from: Int, _ length: Int) -> Int { digits[from..<(from + length)].reduce(0) { $0 * 10 + $1 } }
        return LocalDateTime.valid(year: number(0, 4), month: number(4, 2), day: number(6, 2),
                             hour: number(8, 2), minute: number(10, 2), second: number(12, 2))!
    }

    static func text(_ wall: LocalDateTime) -> String {
        let f = wall.fields
        return String(format: "%04d%02d%02dT%02d%02d%02d", f.year, f.month, f.day, f.hour, f.minute, f.second)
    }
}
