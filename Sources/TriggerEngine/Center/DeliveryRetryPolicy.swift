import Foundation

/// How long a center waits before handing a delivery over again after its
/// handler threw, or before writing a delivery's record again after the store
/// failed: `initial`, doubled each attempt, at most `maximum`.
public struct DeliveryRetryPolicy: Sendable, Hashable {
    /// The first wait.
    public var initial: Duration
    /// The longest wait.
    public var maximum: Duration

    /// 100 ms, doubling up to a minute.
    public init(initial: Duration = .milliseconds(100), maximum: Duration = .seconds(60)) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The wait before attempt `attempt + 1`, after `attempt` failures (1, 2, …).
    public func delay(afterAttempt attempt: Int) -> Duration {
        var delay = initial
        for _ in 1..<max(1, min(attempt, 62)) where delay < maximum { delay *= 2 }
        return min(delay, maximum)
    }
}

/// Which location fixes a center takes: those of a device in order, and none
/// too far from the center's clock (a delivery's date is its fix's time).
public struct LocationPolicy: Sendable, Hashable {
    /// A fix older than this on the center's clock is refused (`nil`: no limit).
    public var maximumAge: Duration?
    /// A fix later than the clock by more than this is refused (`nil`: no limit).
    public var maximumLead: Duration?
    /// The monitor options of location requests that do not set their own.
    public var options: MonitorOptions

    /// Fixes up to 5 minutes old and 1 minute ahead; Apple's region monitoring.
    public init(maximumAge: Duration? = .seconds(300), maximumLead: Duration? = .seconds(60),
                options: MonitorOptions = MonitorOptions()) {
        self.maximumAge = maximumAge
        self.maximumLead = maximumLead
        self.options = options
    }
}

extension LocationPolicy {
    /// Why `fix` cannot be taken at `now` after the device's `previous` fix,
    /// `nil` when it can: an invalid value, not after the previous fix, older
    /// than `maximumAge` or further ahead than `maximumLead`.
    package func refusal(of fix: LocationFix, after previous: LocationFix?, now: Date) -> LocationFixRefusal? {
        let time = fix.time.timeIntervalSince1970
        guard fix.coordinate.isValid, time.isFinite, fix.accuracy.map({ $0.isFinite && $0 >= 0 }) ?? true else {
            return .invalidValue
        }
        if let previous, fix.time <= previous.time { return .notAfterPrevious(previous: previous.time) }
        let age = now.timeIntervalSince(fix.time)
        if let limit = maximumAge, age > limit.seconds { return .tooOld(age: .seconds(age)) }
        if let limit = maximumLead, -age > limit.seconds { return .inTheFuture(lead: .seconds(-age)) }
        return nil
    }
}
