/// Receives what the center delivers: `UNUserNotificationCenterDelegate`.
/// Both methods return when the app is done (Apple's completion handlers as async).
public protocol UserNotificationCenterDelegate: AnyObject, Sendable {
    /// A notification arrives while the recipient's app is in the foreground:
    /// how to present it. The default is silent (`[]`).
    func willPresent(_ notification: DeliveredNotification) async -> PresentationOptions
    /// The user responded to a delivered notification.
    func didReceive(_ response: NotificationResponse) async
}

extension UserNotificationCenterDelegate {
    public func willPresent(_ notification: DeliveredNotification) async -> PresentationOptions { [] }
}
