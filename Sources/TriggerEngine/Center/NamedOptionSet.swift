/// An option set written in JSON as an array of option names
/// (`["foreground","destructive"]`), as Apple's Swift spells them.
protocol NamedOptionSet: OptionSet, Codable where RawValue == Int, Element == Self {
    /// Every option with its name.
    static var names: [(name: String, option: Self)] { get }
}

extension NamedOptionSet {
    init(names: [String], what: String) throws(DataError) {
        self.init()
        for name in names {
            guard let option = Self.names.first(where: { $0.name == name })?.option else {
                throw DataError("unknown \(what) option '\(name)' (expected \(Self.names.map(\.name).joined(separator: ", ")))")
            }
            insert(option)
        }
    }

    public init(from decoder: any Decoder) throws {
        try self.init(names: try decoder.singleValueContainer().decode([String].self), what: String(describing: Self.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Self.names.filter { contains($0.option) }.map(\.name))
    }

    /// The options by name, `[banner, list]`, as Apple's Swift prints them
    /// (an option set prints as its raw value otherwise).
    public var description: String {
        "[" + Self.names.filter { contains($0.option) }.map(\.name).joined(separator: ", ") + "]"
    }
}

extension NotificationAction.Options: NamedOptionSet, CustomStringConvertible {
    static let names: [(name: String, option: Self)] = [
        ("authenticationRequired", .authenticationRequired), ("destructive", .destructive), ("foreground", .foreground),
    ]
}

extension NotificationCategory.Options: NamedOptionSet, CustomStringConvertible {
    static let names: [(name: String, option: Self)] = [
        ("customDismissAction", .customDismissAction), ("allowInCarPlay", .allowInCarPlay),
        ("hiddenPreviewsShowTitle", .hiddenPreviewsShowTitle), ("hiddenPreviewsShowSubtitle", .hiddenPreviewsShowSubtitle),
    ]
}

extension PresentationOptions: NamedOptionSet, CustomStringConvertible {
    static let names: [(name: String, option: Self)] = [("badge", .badge), ("sound", .sound), ("list", .list), ("banner", .banner)]
}
