/// What a geofence run did: rows read, fixes used and skipped by reason, events
/// by kind, and how long it took.
public struct GeofenceSummary: Sendable, Equatable {
    /// Rows (CSV, NDJSON) or track points (GPX) read.
    public var rowsRead = 0
    /// Rows that could not be parsed.
    public var badRows = 0
    /// The first bad row's location and problem, for the summary.
    public var firstBadRow: DataError?
    /// What the monitors counted (fixes used and skipped, events).
    public var counters = MonitorCounters()
    /// Distinct devices seen.
    public var devices = 0
    /// Wall-clock seconds from opening the log to the last event written.
    public var seconds = 0.0
    /// Of those, the seconds spent encoding and writing events (on the monitor's
    /// thread; with the log read on another thread, the phases overlap).
    public var outputSeconds = 0.0

    /// Creates an empty summary.
    public init() {}

    /// Rows per second of wall-clock time.
    public var fixesPerSecond: Double { seconds > 0 ? Double(rowsRead) / seconds : 0 }
}
