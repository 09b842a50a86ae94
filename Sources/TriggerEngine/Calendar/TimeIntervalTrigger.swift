import Foundation

/// A trigger that fires a fixed time after its request was added, and again
/// every interval when it repeats: `UNTimeIntervalNotificationTrigger`.
public struct TimeIntervalTrigger: Sendable, Hashable {
    /// Seconds from the moment the request is added to the first fire.
    public let timeInterval: TimeInterval
    /// Whether it fires every `timeInterval` seconds, or once.
    public let repeats: Bool

    /// Apple's floor for a repeating interval, in seconds.
    public static let minimumRepeatingInterval: TimeInterval = 60

    /// The longest interval: the span of years 1–9999 (`InstantBounds`), past
    /// which no trigger could ever fire.
    public static let maximumInterval: TimeInterval = InstantBounds.seconds.upperBound - InstantBounds.seconds.lowerBound

    /// Creates a trigger.
    /// - Throws: `DataError` when the interval is not a positive finite number,
    ///   is under 60 seconds for a repeating trigger (Apple's rule), or is
    ///   longer than `maximumInterval`.
    public init(timeInterval: TimeInterval, repeats: Bool) throws(DataError) {
        let shown = timeInterval.rounded() == timeInterval && abs(timeInterval) < 1e15
            ? String(Int(timeInterval)) : String(timeInterval)
        guard timeInterval.isFinite, timeInterval > 0 else {
            throw DataError("time interval \(shown) s must be greater than 0")
        }
        guard !repeats || timeInterval >= Self.minimumRepeatingInterval else {
            throw DataError("time interval \(shown) s must be at least 60 s when repeating (Apple's rule)")
        }
        guard timeInterval <= Self.maximumInterval else {
            throw DataError("time interval \(shown) s is longer than years 1–9999 (at most \(Int(Self.maximumInterval)) s)")
        }
        self.timeInterval = timeInterval
        self.repeats = repeats
    }

    /// The first fire strictly after `date`: `addedAt + k·timeInterval` for the
    /// smallest k ≥ 1 past `date`, or nil when the trigger does not repeat and
    /// its one fire (k = 1) is not after `date`, or when that fire would be past
    /// year 9999 (`InstantBounds`: the series ends there).
    /// - Complexity: O(1).
    public func nextTriggerDate(after date: Date, addedAt: Date) -> Date? {
        let added = addedAt.timeIntervalSince1970, after = date.timeIntervalSince1970
        guard added.isFinite, !after.isNaN, after < InstantBounds.seconds.upperBound else { return nil }
        let first = added + timeInterval
        guard repeats else { return first > after ? InstantBounds.fire(first).map(Date.init(timeIntervalSince1970:)) : nil }
        let elapsed = after - added
        var k = elapsed < timeInterval ? 1 : (elapsed / timeInterval).rounded(.down) + 1
        // Rounding can leave the candidate on or before `date`; a step or two
        // fixes it (both sides are finite and below 10^12 here, so it ends).
        while added + k * timeInterval <= after { k += 1 }
        return InstantBounds.fire(added + k * timeInterval).map(Date.init(timeIntervalSince1970:))
    }

    /// The fire dates after `date`, lazily (one when the trigger does not repeat).
    public func fireDates(after date: Date, addedAt: Date) -> some Sequence<Date> {
        var cursor = date
        var done = false
        let repeats = self.repeats
        return AnyIterator<Date> {
            guard !done, let next = self.nextTriggerDate(after: cursor, addedAt: addedAt) else { return nil }
            if !repeats { done = true }
            cursor = next
            return next
        }.lazy
    }
}
