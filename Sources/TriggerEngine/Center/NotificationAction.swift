/// A button on a delivered notification: `UNNotificationAction`, or with
/// `textInput` set, `UNTextInputNotificationAction`.
public struct NotificationAction: Sendable, Codable, Hashable {
    /// `UNNotificationActionOptions`.
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let authenticationRequired = Options(rawValue: 1 << 0)
        public static let destructive = Options(rawValue: 1 << 1)
        public static let foreground = Options(rawValue: 1 << 2)
    }

    /// The text field of a text-input action.
    public struct TextInput: Sendable, Codable, Hashable {
        public var buttonTitle: String
        public var placeholder: String
        public init(buttonTitle: String, placeholder: String) {
            self.buttonTitle = buttonTitle
            self.placeholder = placeholder
        }
    }

    public var identifier: String
    public var title: String
    public var options: Options
    public var textInput: TextInput?

    public init(identifier: String, title: String, options: Options = [], textInput: TextInput? = nil) {
        self.identifier = identifier
        self.title = title
        self.options = options
        self.textInput = textInput
    }

    enum CodingKeys: String, CodingKey { case identifier, title, options, textInput }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(identifier: try c.decode(String.self, forKey: .identifier),
                  title: try c.decodeIfPresent(String.self, forKey: .title) ?? "",
                  options: try c.decodeIfPresent(Options.self, forKey: .options) ?? [],
                  textInput: try c.decodeIfPresent(TextInput.self, forKey: .textInput))
    }
}
