import Foundation

/// A clock whose instants are wall-clock dates: what a notification center
/// runs on. `WallClock` is the system's, `ManualClock` a test's or a
/// simulation's. Any other `Clock<Duration>` (`ContinuousClock`, a test clock
/// from another package) works too: the center then anchors its instants to
/// the date it starts at (`UserNotificationCenter.init(clock:…)`).
public protocol NotificationClock: Clock where Duration == Swift.Duration {
    /// The wall-clock date of an instant of this clock.
    func date(of instant: Instant) -> Date
    /// The instant of this clock at a wall-clock date.
    func instant(at date: Date) -> Instant
}

/// An instant that is a wall-clock date, shared by `WallClock` and `ManualClock`.
public struct DateInstant: InstantProtocol, Sendable, Hashable, Comparable {
    public typealias Duration = Swift.Duration

    /// The date this instant is.
    public var date: Date

    /// The instant at `date`.
    public init(date: Date) { self.date = date }

    public func advanced(by duration: Duration) -> DateInstant {
        DateInstant(date: date.addingTimeInterval(duration.seconds))
    }

    public func duration(to other: DateInstant) -> Duration {
        .seconds(other.date.timeIntervalSince1970 - date.timeIntervalSince1970)
    }

    public static func < (lhs: DateInstant, rhs: DateInstant) -> Bool { lhs.date < rhs.date }
}

extension Duration {
    /// The duration in seconds, as a `Double` (attosecond precision lost).
    package var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}

/// Instants to dates and back for a center, whatever its clock.
package struct CenterClock: Sendable {
    /// The wall-clock date now.
    package let now: @Sendable () -> Date
    /// Sleeps until `date` on the clock (returns at once when it has passed).
    package let sleep: @Sendable (Date) async throws -> Void
    /// The manual clock, when it is one: `advance(to:)` moves it.
    let manual: ManualClock?

    /// A clock whose instants are dates.
    package init<C: NotificationClock>(exact clock: C) {
        self.init(now: { clock.date(of: clock.now) },
                  sleep: { date in try await clock.sleep(until: clock.instant(at: date), tolerance: nil) },
                  manual: clock as? ManualClock)
    }

    /// Any other clock: its instant now is taken to be `anchor`, and other
    /// instants lie the clock's own durations away from it.
    package init<C: Clock<Duration>>(anchored clock: C, at anchor: Date) {
        if let exact = clock as? any NotificationClock {
            self.init(exact: exact)
            return
        }
        let origin = clock.now
        self.init(now: { anchor.addingTimeInterval(origin.duration(to: clock.now).seconds) },
                  sleep: { date in
                      try await clock.sleep(until: origin.advanced(by: .seconds(date.timeIntervalSince(anchor))), tolerance: nil)
                  },
                  manual: nil)
    }

    private init(now: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (Date) async throws -> Void,
                 manual: ManualClock?) {
        self.now = now
        self.sleep = sleep
        self.manual = manual
    }
}
