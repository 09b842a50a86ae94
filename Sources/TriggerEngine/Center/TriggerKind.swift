/// The kind of a notification's trigger: what a delivery says caused it.
/// Its raw value is the name used in JSON and in `simulate`'s and `run`'s lines.
public enum TriggerKind: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case calendar, timeInterval, location, recurrence, push

    public var description: String { rawValue }
}
