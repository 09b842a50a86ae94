/// A VALARM (RFC 5545 §3.6.6): when it fires relative to an instance, what it does.
public struct ICSAlarm: Sendable, Hashable {
    /// §3.8.6.3 TRIGGER: a duration from the instance's start or end, or a fixed instant.
    public enum Trigger: Sendable, Hashable {
        case relative(ICSDuration, toEnd: Bool)
        case absolute(Int)
    }
    /// 1-based position among the component's alarms (`alarm-N` in identifiers).
    public var index: Int
    /// TRIGGER (§3.8.6.3): relative to the start or end, or absolute.
    public var trigger: Trigger
    /// DISPLAY, AUDIO or EMAIL.
    public var action: String
    public var description: String
    /// §3.8.6.2 REPEAT: further firings after the first, each `repeatInterval` apart.
    public var repeatCount: Int
    /// DURATION between repetitions (with REPEAT).
    public var repeatInterval: ICSDuration

    /// Every firing for an instance running from `start` to `end` (instants): the
    /// trigger, then REPEAT more, DURATION apart.
    package func firings(start: ICSTime, end: ICSTime) -> [Int] {
        let first: Int
        switch trigger {
        case .absolute(let instant): first = instant
        case .relative(let duration, let toEnd): first = duration.instant(after: toEnd ? end : start)
        }
        return (0...max(0, repeatCount)).map { first + $0 * repeatInterval.approximateSeconds }
    }

    /// Bounds of (firing − instance start) in seconds, for widening a search window.
    func offsetBounds(maxLength: Int) -> (low: Int, high: Int)? {
        guard case .relative(let duration, let toEnd) = trigger else { return nil }
        let base = duration.approximateSeconds + (toEnd ? maxLength : 0)
        let span = max(0, repeatCount) * repeatInterval.approximateSeconds
        return (min(base, base + span) - 2 * 86_400, max(base, base + span) + 2 * 86_400)
    }
}
