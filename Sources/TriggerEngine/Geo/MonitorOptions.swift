/// How a `RegionMonitor` turns fixes into events (the semantics of
/// `trigger-eval geofence`).
public struct MonitorOptions: Sendable, Hashable {
    /// What a device's first fix does.
    public enum InitialState: String, Sendable, Hashable, CaseIterable {
        /// Apple's region monitoring: the first fix only sets the state.
        case none
        /// Android's `INITIAL_TRIGGER_ENTER` and Tile38: a first fix inside is an enter.
        case enter
    }

    /// What a device's first fix does.
    public var initial: InitialState
    /// Exit hysteresis in metres: a device inside leaves only when it is farther
    /// than this from the region (0: as soon as it is outside).
    public var hysteresis: Double
    /// Dwell time in seconds: a `dwell` event at the first fix at least this long
    /// after an enter, if the device has not left (`nil`: no dwell events).
    public var dwell: Double?
    /// Whether to report `cross` events.
    public var cross: Bool
    /// Fixes whose accuracy is worse (larger) than this many metres are ignored.
    public var maxAccuracy: Double?

    /// Creates options; the defaults are Apple's behaviour.
    public init(initial: InitialState = .none, hysteresis: Double = 0, dwell: Double? = nil, cross: Bool = false,
                maxAccuracy: Double? = nil) {
        self.initial = initial
        self.hysteresis = hysteresis
        self.dwell = dwell
        self.cross = cross
        self.maxAccuracy = maxAccuracy
    }

    /// Checks the values.
    /// - Throws: `DataError` for a negative or non-finite hysteresis, a dwell time
    ///   that is not positive, or a negative accuracy limit.
    public func validated() throws(DataError) -> MonitorOptions {
        guard hysteresis.isFinite, hysteresis >= 0 else {
            throw DataError("hysteresis \(hysteresis) must be 0 or more metres")
        }
        if let dwell, !(dwell.isFinite && dwell > 0) {
            throw DataError("dwell time \(dwell) must be a positive number of seconds")
        }
        if let maxAccuracy, !(maxAccuracy >= 0) {
            throw DataError("maximum accuracy \(maxAccuracy) must be 0 or more metres")
        }
        return self
    }
}
