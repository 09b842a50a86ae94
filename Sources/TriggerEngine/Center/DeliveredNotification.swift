import Foundation

/// A notification that was delivered: `UNNotification` (its request and date).
public struct DeliveredNotification: Sendable, Hashable, Codable {
    public var request: NotificationRequest
    public var date: Date
    /// The recipient it was delivered to (`""` for a single-user center).
    public var recipient: String

    public init(request: NotificationRequest, date: Date, recipient: String = "") {
        self.request = request
        self.date = date
        self.recipient = recipient
    }
}
