import Foundation

/// What the user did with a delivered notification: `UNNotificationResponse`
/// (and `UNTextInputNotificationResponse` when `userText` is set).
public struct NotificationResponse: Sendable, Hashable {
    /// `UNNotificationDefaultActionIdentifier`: the user opened the notification.
    public static let defaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"
    /// `UNNotificationDismissActionIdentifier`: the user dismissed it.
    public static let dismissActionIdentifier = "com.apple.UNNotificationDismissActionIdentifier"

    /// The delivered notification responded to.
    public var notification: DeliveredNotification
    public var actionIdentifier: String
    /// The typed text of a text-input action.
    public var userText: String?
    /// When the user responded.
    public var date: Date

    public init(notification: DeliveredNotification, actionIdentifier: String, userText: String? = nil, date: Date) {
        self.notification = notification
        self.actionIdentifier = actionIdentifier
        self.userText = userText
        self.date = date
    }
}
