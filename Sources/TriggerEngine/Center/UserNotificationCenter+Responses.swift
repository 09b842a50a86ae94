import Foundation

/// Routing what users did with delivered notifications to the delegate.
extension UserNotificationCenter {
    /// Routes a response to the delegate and waits for it to finish.
    /// - Parameters:
    ///   - action: an action identifier of the notification's category,
    ///     `NotificationResponse.defaultActionIdentifier` (also `"default"`), or
    ///     the dismiss identifier (also `"dismiss"`).
    ///   - text: the typed text, for a text-input action.
    /// - Returns: the response routed, `nil` for a dismiss whose category lacks
    ///   `customDismissAction` (Apple does not deliver those; counted).
    /// - Throws: `DataError` when nothing with `identifier` was delivered, the
    ///   action is not in its category, or text is given to a non-text action.
    @discardableResult
    public func respond(toIdentifier identifier: String, action: String, text: String? = nil,
                        at date: Date) async throws -> NotificationResponse? {
        guard let notification = deliveredNotifications().last(where: { $0.request.identifier == identifier }) else {
            throw DataError("response to '\(identifier)', which has not been delivered")
        }
        let category = categories[notification.request.content.categoryIdentifier]
        let actionIdentifier: String
        switch action {
        case "default", NotificationResponse.defaultActionIdentifier:
            actionIdentifier = NotificationResponse.defaultActionIdentifier
        case "dismiss", NotificationResponse.dismissActionIdentifier:
            guard category?.options.contains(.customDismissAction) == true else {
                droppedDismissCount += 1
                return nil
            }
            actionIdentifier = NotificationResponse.dismissActionIdentifier
        default:
            guard let found = category?.actions.first(where: { $0.identifier == action }) else {
                let known = category.map { $0.actions.map(\.identifier).joined(separator: ", ") } ?? ""
                throw DataError("response to '\(identifier)': action '\(action)' is not in its category '\(notification.request.content.categoryIdentifier)'"
                                + (known.isEmpty ? "" : " (expected default, dismiss or one of \(known))"))
            }
            if text != nil && found.textInput == nil {
                throw DataError("response to '\(identifier)': action '\(action)' takes no text")
            }
            actionIdentifier = action
        }
        let response = NotificationResponse(notification: notification, actionIdentifier: actionIdentifier,
                                            userText: text, date: date)
        await delegate?.didReceive(response)
        return response
    }
}
