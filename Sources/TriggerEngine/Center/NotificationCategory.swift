/// A kind of notification and the actions it offers: `UNNotificationCategory`.
public struct NotificationCategory: Sendable, Codable, Hashable {
    /// `UNNotificationCategoryOptions`.
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Deliver dismiss actions to the delegate.
        public static let customDismissAction = Options(rawValue: 1 << 0)
        public static let allowInCarPlay = Options(rawValue: 1 << 1)
        public static let hiddenPreviewsShowTitle = Options(rawValue: 1 << 2)
        public static let hiddenPreviewsShowSubtitle = Options(rawValue: 1 << 3)
    }

    /// Apple shows at most four actions of a category.
    public static let maximumActions = 4

    public var identifier: String
    public var actions: [NotificationAction]
    public var intentIdentifiers: [String]
    public var options: Options
    public var hiddenPreviewsBodyPlaceholder: String?

    public init(identifier: String, actions: [NotificationAction], intentIdentifiers: [String] = [],
                hiddenPreviewsBodyPlaceholder: String? = nil, options: Options = []) {
        self.identifier = identifier
        self.actions = actions
        self.intentIdentifiers = intentIdentifiers
        self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder
        self.options = options
    }

    enum CodingKeys: String, CodingKey { case identifier, actions, intentIdentifiers, options, hiddenPreviewsBodyPlaceholder }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(identifier: try c.decode(String.self, forKey: .identifier),
                  actions: try c.decodeIfPresent([NotificationAction].self, forKey: .actions) ?? [],
                  intentIdentifiers: try c.decodeIfPresent([String].self, forKey: .intentIdentifiers) ?? [],
                  hiddenPreviewsBodyPlaceholder: try c.decodeIfPresent(String.self, forKey: .hiddenPreviewsBodyPlaceholder),
                  options: try c.decodeIfPresent(Options.self, forKey: .options) ?? [])
    }

    /// Checks a set of categories as Apple's `setNotificationCategories` would be used:
    /// identifiers unique, at most four actions each, action identifiers unique
    /// across all categories (a response names only its action).
    /// - Throws: `DataError` naming the offending category or action.
    public static func validate(_ categories: some Sequence<NotificationCategory>) throws(DataError) {
        var categoryIDs = Set<String>()
        var actionOwners: [String: String] = [:]
        for category in categories {
            guard !category.identifier.isEmpty else { throw DataError("a category's identifier must not be empty") }
            guard categoryIDs.insert(category.identifier).inserted else {
                throw DataError("category '\(category.identifier)' is defined twice")
            }
            guard category.actions.count <= maximumActions else {
                throw DataError("category '\(category.identifier)' has \(category.actions.count) actions; at most \(maximumActions) are allowed")
            }
            for action in category.actions {
                guard !action.identifier.isEmpty else { throw DataError("category '\(category.identifier)': an action's identifier must not be empty") }
                if action.identifier == NotificationResponse.defaultActionIdentifier
                    || action.identifier == NotificationResponse.dismissActionIdentifier {
                    throw DataError("category '\(category.identifier)': action identifier '\(action.identifier)' is reserved")
                }
                if let owner = actionOwners[action.identifier] {
                    throw DataError("action '\(action.identifier)' appears in category '\(owner)' and in '\(category.identifier)'; action identifiers must be unique across categories")
                }
                actionOwners[action.identifier] = category.identifier
            }
        }
    }
}
