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
        let categoryName = notification.request.content.categoryIdentifier
        guard let actionIdentifier = try NotificationResponse.actionIdentifier(
            for: action, text: text, in: categories[categoryName], responding: identifier, categoryName: categoryName) else {
            droppedDismissCount += 1
            return nil
        }
        let response = NotificationResponse(notification: notification, actionIdentifier: actionIdentifier,
                                            userText: text, date: date)
        await delegate?.didReceive(response)
        return response
    }
}

extension NotificationResponse {
    /// The action identifier a response with `action` (an action of the
    /// category, `default`, or `dismiss`, also by their full identifiers) routes as.
    /// - Returns: `nil` for a dismiss whose category lacks `customDismissAction`
    ///   (Apple does not deliver those).
    /// - Throws: `DataError` when the action is not in the category, or text
    ///   is given to an action without text input.
    static func actionIdentifier(for action: String, text: String?, in category: NotificationCategory?,
                                 responding identifier: String, categoryName: String) throws(DataError) -> String? {
        switch action {
        case "default", defaultActionIdentifier:
            return defaultActionIdentifier
        case "dismiss", dismissActionIdentifier:
            guard category?.options.contains(.customDismissAction) == true else { return nil }
            return dismissActionIdentifier
        default:
            guard let found = category?.actions.first(where: { $0.identifier == action }) else {
                let known = category.map { $0.actions.map(\.identifier).joined(separator: ", ") } ?? ""
                throw DataError("response to '\(identifier)': action '\(action)' is not in its category '\(categoryName)'"
                                + (known.isEmpty ? "" : " (expected default, dismiss or one of \(known))"))
            }
            if text != nil && found.textInput == nil {
                throw DataError("response to '\(identifier)': action '\(action)' takes no text")
            }
            return action
        }
    }
}
