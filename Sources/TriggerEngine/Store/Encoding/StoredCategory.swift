/// A notification category as the store writes it in JSON; see `StoredRequest`
/// for why the store keeps its own form. Option sets are their bits, which
/// are Apple's and fixed.
package struct StoredCategory: Codable {
    struct Action: Codable {
        var id: String
        var title: String
        var options: Int?
        var inputButton: String?
        var inputPlaceholder: String?
    }

    var id: String
    var actions: [Action]
    var intents: [String]?
    var options: Int?
    var placeholder: String?

    package init(_ category: NotificationCategory) {
        id = category.identifier
        actions = category.actions.map { action in
            Action(id: action.identifier, title: action.title,
                   options: action.options.isEmpty ? nil : action.options.rawValue,
                   inputButton: action.textInput?.buttonTitle, inputPlaceholder: action.textInput?.placeholder)
        }
        intents = category.intentIdentifiers.isEmpty ? nil : category.intentIdentifiers
        options = category.options.isEmpty ? nil : category.options.rawValue
        placeholder = category.hiddenPreviewsBodyPlaceholder
    }

    package var category: NotificationCategory {
        NotificationCategory(
            identifier: id,
            actions: actions.map { action in
                let input: NotificationAction.TextInput? = action.inputButton.map {
                    NotificationAction.TextInput(buttonTitle: $0, placeholder: action.inputPlaceholder ?? "")
                }
                return NotificationAction(identifier: action.id, title: action.title,
                                          options: NotificationAction.Options(rawValue: action.options ?? 0),
                                          textInput: input)
            },
            intentIdentifiers: intents ?? [], hiddenPreviewsBodyPlaceholder: placeholder,
            options: NotificationCategory.Options(rawValue: options ?? 0))
    }
}
