import Foundation
import Synchronization

/// A clock that moves only when told to: for tests and simulations of a live
/// center. Sleepers wake when `advance` reaches their deadline, in deadline
/// order; a cancelled sleeper wakes at once with `CancellationError`.
public final class ManualClock: NotificationClock, Sendable {
    public typealias Instant = DateInstant

    private struct Sleeper {
        var id: UInt64
        var deadline: Date
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Date
        var sleepers: [Sleeper] = []
        var nextID: UInt64 = 0
        /// Sleepers cancelled before they were registered.
        var cancelled: Set<UInt64> = []
    }

    private let state: Mutex<State>

    /// A clock that reads `now` until it is advanced.
    public init(now: Date) { state = Mutex(State(now: now)) }

    public var now: DateInstant { DateInstant(date: state.withLock { $0.now }) }

    public var minimumResolution: Duration { .nanoseconds(1) }

    /// The date the clock reads.
    public var date: Date { state.withLock { $0.now } }

    /// The earliest deadline anyone sleeps until, `nil` when nobody sleeps:
    /// lets a test wait until a center is asleep before moving the clock.
    public var nextDeadline: Date? { state.withLock { $0.sleepers.map(\.deadline).min() } }

    /// Moves the clock forward by `duration` and wakes who slept until then.
    public func advance(by duration: Duration) {
        advance(to: date.addingTimeInterval(duration.seconds))
    }

    /// Moves the clock to `date` (never back) and wakes who slept until then.
    public func advance(to date: Date) {
        let woken: [Sleeper] = state.withLock { state in
            if date > state.now { state.now = date }
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    public func sleep(until deadline: DateInstant, tolerance: Duration?) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline.date <= state.now { return .success(()) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline.date, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper: Sleeper? = state.withLock { state in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    public func date(of instant: DateInstant) -> Date { instant.date }

    public func instant(at date: Date) -> DateInstant { DateInstant(date: date) }
}
