import Foundation

/// A run loop's pause: asleep until a date on its clock or until woken,
/// whichever comes first. A value kept in an actor's state (the live center's
/// and a cluster node's loops); the actor arms the timer, whose task calls
/// `timerFired` back on the actor.
package struct LoopPause {
    package init() {}

    private var sleeper: CheckedContinuation<Void, Never>?
    /// The date the loop sleeps until (`nil`: until woken, or awake).
    package private(set) var sleepingUntil: Date?
    private var timer: Task<Void, Never>?
    /// Which pause a timer belongs to: a timer of an earlier pause wakes nothing.
    private var generation: UInt64 = 0

    /// Whether the loop is asleep.
    package var isAsleep: Bool { sleeper != nil }

    /// Starts a pause until `date` (`nil`: until woken).
    /// - Returns: the pause's generation, for `timerFired`.
    package mutating func begin(_ continuation: CheckedContinuation<Void, Never>, until date: Date?) -> UInt64 {
        generation &+= 1
        sleeper = continuation
        sleepingUntil = date
        return generation
    }

    /// The clock sleep behind the current pause, cancelled on a wake-up.
    package mutating func arm(_ task: Task<Void, Never>) { timer = task }

    /// The timer of pause `generation` ran out.
    package mutating func timerFired(_ generation: UInt64) {
        guard generation == self.generation else { return }
        wake()
    }

    /// Ends the pause (nothing when awake).
    package mutating func wake() {
        timer?.cancel()
        timer = nil
        sleepingUntil = nil
        sleeper?.resume()
        sleeper = nil
    }
}
