import Foundation

/// The instants TriggerEngine reads, computes and writes: RFC 3339's years
/// 1–9999, in UTC (0001-01-01T00:00:00Z up to the end of 9999-12-31).
///
/// An instant outside is refused where it enters (RFC 3339 text, epoch
/// seconds in a log or a command), and a series whose next fire would leave
/// the range ends instead (a time-interval trigger repeating past 9999, a
/// calendar trigger matching `yearForWeekOfYear=20046`). So nothing
/// downstream — microseconds as an `Int`, a date written back as RFC 3339 —
/// meets a value it cannot hold.
package enum InstantBounds {
    /// 0001-01-01T00:00:00Z, the first instant.
    package static let earliest = Date(timeIntervalSince1970: -62_135_596_800)
    /// 10000-01-01T00:00:00Z, the first instant past the range.
    package static let end = Date(timeIntervalSince1970: 253_402_300_800)

    /// The range as epoch seconds.
    package static let seconds = earliest.timeIntervalSince1970 ..< end.timeIntervalSince1970

    /// Whether `date` is inside the range (NaN is not).
    @inline(__always)
    package static func contains(_ date: Date) -> Bool {
        seconds.contains(date.timeIntervalSince1970)
    }

    /// `seconds` itself when it is inside the range, else `nil`: what a
    /// trigger returns for a next fire (a fire past 9999 ends the series).
    @inline(__always)
    static func fire(_ seconds: Double) -> Double? {
        Self.seconds.contains(seconds) ? seconds : nil
    }
}
