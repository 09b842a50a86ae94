import Foundation

/// Routing what users did with delivered notifications to the delegate.
extension UserNotificationCenter {
    /// Routes a response to the delegate and waits for it to finish.
    /// - Parameters:
    ///   - identifier: the delivered request's identifier (its latest delivery is answered).
    ///   - action: an action identifier of the notification's category,
    ///     `NotificationResponse.defaultActionIdentifier`, or
    ///     `NotificationResponse.dismissActionIdentifier`.
    ///   - text: the typed text, for a text-input action.
    ///   - date: when the user responded.
    /// - Returns: the response routed, `nil` for a dismiss whose category lacks
    ///   `customDismissAction` (Apple does not deliver those; counted).
    /// - Throws: `CenterError.notDelivered`, `.actionNotInCategory` or
    ///   `.actionTakesNoText`.
    @discardableResult
    public func respond(toIdentifier identifier: String, action: String, text: String? = nil,
                        at date: Date) async throws -> NotificationResponse? {
        guard let notification = deliveredNotifications().last(where: { $0.request.identifier == identifier }) else {
            throw CenterError.notDelivered(identifier: identifier)
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
    /// category, or the default or dismiss identifier) routes as.
    /// - Returns: `nil` for a dismiss whose category lacks `customDismissAction`
    ///   (Apple does not deliver those).
    /// - Throws: `CenterError.actionNotInCategory` or `.actionTakesNoText`.
    package static func actionIdentifier(for action: String, text: String?, in category: NotificationCategory?,
                                 responding identifier: String, categoryName: String) throws(CenterError) -> String? {
        switch action {
        case defaultActionIdentifier:
            return defaultActionIdentifier
        case dismissActionIdentifier:
            guard category?.options.contains(.customDismissAction) == true else { return nil }
            return dismissActionIdentifier
        default:
            guard let found = category?.actions.first(where: { $0.identifier == action }) else {
                throw CenterError.actionNotInCategory(identifier: identifier, action: action, category: categoryName,
                                                      actions: category?.actions.map(\.identifier) ?? [])
            }
            if text != nil && found.textInput == nil {
                throw CenterError.actionTakesNoText(identifier: identifier, action: action)
            }
            return action
        }
    }
}

extension NotificationResponse {
    /// The action identifier `name` stands for in a scenario file or a
    /// sidecar command: `default` and `dismiss` are short for Apple's default
    /// and dismiss identifiers; any other name is an action's own identifier.
    package static func actionIdentifier(named name: String) -> String {
        switch name {
        case "default": defaultActionIdentifier
        case "dismiss": dismissActionIdentifier
        default: name
        }
    }
}
