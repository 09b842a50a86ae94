/// What a `RegionMonitor` has seen: fixes used and skipped by reason, events by
/// kind, and what the exact tests cost.
public struct MonitorCounters: Sendable, Hashable {
    /// Why a fix was not used.
    public enum SkipReason: String, Sendable, Hashable, CaseIterable {
        /// Latitude, longitude or accuracy not a number or out of range.
        case badValue = "bad value"
        /// Accuracy worse than `MonitorOptions.maxAccuracy`.
        case inaccurate
        /// Older than the device's previous fix.
        case outOfOrder = "out of order"
        /// At the same instant as the device's previous fix.
        case duplicate
    }

    /// Fixes that changed or confirmed a device's state.
    public var used = 0
    /// Fixes skipped, by reason.
    public var skipped: [SkipReason: Int] = [:]
    /// Events emitted, by kind.
    public var events: [RegionEvent.Kind: Int] = [:]
    /// Exact point-in-polygon tests answered in Swift.
    public var exactTests = 0
    /// Tests handed to GEOS (`GEOSPreparedCovers_r` on a built point, or
    /// `GEOSPreparedIntersects_r` on a segment) because floating point could not decide.
    public var geosTests = 0

    /// Creates empty counters.
    public init() {}

    /// All fixes offered to the monitor.
    public var fixes: Int { used + skipped.values.reduce(0, +) }

    /// The sum of two sets of counters (for monitors that split the devices).
    public static func + (lhs: MonitorCounters, rhs: MonitorCounters) -> MonitorCounters {
        var sum = lhs
        sum.used += rhs.used
        sum.skipped.merge(rhs.skipped, uniquingKeysWith: +)
        sum.events.merge(rhs.events, uniquingKeysWith: +)
        sum.exactTests += rhs.exactTests
        sum.geosTests += rhs.geosTests
        return sum
    }
}
