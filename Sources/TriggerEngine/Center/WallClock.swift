import Foundation

/// The system's wall clock, for a center in production: calendar triggers fire
/// at wall-clock times, so the clock a center sleeps on is the one `Date()` reads.
///
/// A sleep is made of slices on the monotonic clock of at most
/// `WallClock.recheckInterval` each, after which the wall clock is read again:
/// when the system clock is stepped (NTP, an operator), a wake-up is at most
/// that late, and never early.
public struct WallClock: NotificationClock {
    public typealias Instant = DateInstant

    /// How long one slice of a sleep may be before the wall clock is read again.
    public static let recheckInterval: Duration = .seconds(1)

    /// The system's wall clock.
    public init() {}

    public var now: DateInstant { DateInstant(date: Date()) }

    public var minimumResolution: Duration { .microseconds(1) }

    public func sleep(until deadline: DateInstant, tolerance: Duration?) async throws {
        let monotonic = ContinuousClock()
        while true {
            let remaining = Duration.seconds(deadline.date.timeIntervalSinceNow)
            if remaining <= .zero { return }
            try await monotonic.sleep(for: min(remaining, Self.recheckInterval), tolerance: tolerance)
        }
    }

    public func date(of instant: DateInstant) -> Date { instant.date }

    public func instant(at date: Date) -> DateInstant { DateInstant(date: date) }
}
