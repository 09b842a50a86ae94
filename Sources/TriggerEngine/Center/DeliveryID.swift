import Foundation

/// The identity of one fire, the same every time that fire is handed over
/// (again after a crash or a failed hand-over), different for any other fire:
/// what a receiver deduplicates at-least-once deliveries by.
///
/// It is readable, not a hash, so two fires can never share one: the due
/// instant in milliseconds, then what tells fires of that instant apart (the
/// request's add instant for a clock fire; the event and the device for a
/// location fire), then the request's identifier. Free text is escaped
/// (`%` → `%25`, `~` → `%7E`) so the `~`-separated fields read back unambiguously.
public struct DeliveryID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The identifier as text.
    public let rawValue: String

    /// An identifier read back (from a store or a receiver).
    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    public static func < (lhs: DeliveryID, rhs: DeliveryID) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// A fire on the clock: request `identifier`, added at `added`, due at `due`.
    package static func clockFire(identifier: String, added: Date?, due: Date) -> DeliveryID {
        DeliveryID(rawValue: [milliseconds(due), "a" + milliseconds(added ?? due), escaped(identifier)].joined(separator: "~"))
    }

    /// A location request fired by `event`.
    package static func regionEvent(_ event: RegionEvent, identifier: String) -> DeliveryID {
        DeliveryID(rawValue: [milliseconds(event.time), event.kind.rawValue, escaped(event.device), escaped(identifier)]
            .joined(separator: "~"))
    }

    /// A push received at `date`.
    package static func push(identifier: String, at date: Date) -> DeliveryID {
        DeliveryID(rawValue: [milliseconds(date), "push", escaped(identifier)].joined(separator: "~"))
    }

    /// Milliseconds since 1970 (instants are bounded to years 1–9999 where they enter).
    private static func milliseconds(_ date: Date) -> String {
        let value = (date.timeIntervalSince1970 * 1_000).rounded()
        guard value.isFinite, abs(value) < 9e15 else { return "invalid" }
        return String(Int64(value))
    }

    private static func escaped(_ text: String) -> String {
        guard text.contains(where: { $0 == "~" || $0 == "%" }) else { return text }
        return text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "~", with: "%7E")
    }
}
