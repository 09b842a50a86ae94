/// The sound a notification plays: `UNNotificationSound`.
public enum NotificationSound: Sendable, Hashable, Codable {
    /// The system's default sound.
    case `default`
    /// A sound file by name; one longer than `maximumDuration` plays the default instead.
    case named(String)

    /// Apple's limit for a custom notification sound, in seconds.
    public static let maximumDuration: Double = 30

    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        self = name == "default" ? .default : .named(name)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .default: try container.encode("default")
        case .named(let name): try container.encode(name)
        }
    }
}
