/// `UNNotificationPresentationOptions`: how a notification arriving while the
/// app is in the foreground is shown; the empty set (silent) is the default.
public struct PresentationOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let badge = PresentationOptions(rawValue: 1 << 0)
    public static let sound = PresentationOptions(rawValue: 1 << 1)
    public static let list = PresentationOptions(rawValue: 1 << 3)
    public static let banner = PresentationOptions(rawValue: 1 << 4)
}
