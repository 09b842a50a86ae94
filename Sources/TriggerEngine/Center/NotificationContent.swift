/// What a notification shows: `UNNotificationContent`.
public struct NotificationContent: Sendable, Codable, Hashable {
    public var title: String
    public var subtitle: String
    public var body: String
    /// The app badge number to set, `nil` to leave it.
    public var badge: Int?
    public var sound: NotificationSound?
    /// Custom data, JSON values.
    public var userInfo: [String: UserInfoValue]
    /// The category whose actions the notification offers.
    public var categoryIdentifier: String
    /// Groups notifications of one conversation.
    public var threadIdentifier: String

    public init(title: String = "", subtitle: String = "", body: String = "", badge: Int? = nil,
                sound: NotificationSound? = nil, userInfo: [String: UserInfoValue] = [:],
                categoryIdentifier: String = "", threadIdentifier: String = "") {
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.badge = badge
        self.sound = sound
        self.userInfo = userInfo
        self.categoryIdentifier = categoryIdentifier
        self.threadIdentifier = threadIdentifier
    }

    enum CodingKeys: String, CodingKey {
        case title, subtitle, body, badge, sound, userInfo, categoryIdentifier, threadIdentifier
    }

    /// Every key is optional in JSON, as every property has a default.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(title: try c.decodeIfPresent(String.self, forKey: .title) ?? "",
                  subtitle: try c.decodeIfPresent(String.self, forKey: .subtitle) ?? "",
                  body: try c.decodeIfPresent(String.self, forKey: .body) ?? "",
                  badge: try c.decodeIfPresent(Int.self, forKey: .badge),
                  sound: try c.decodeIfPresent(NotificationSound.self, forKey: .sound),
                  userInfo: try c.decodeIfPresent([String: UserInfoValue].self, forKey: .userInfo) ?? [:],
                  categoryIdentifier: try c.decodeIfPresent(String.self, forKey: .categoryIdentifier) ?? "",
                  threadIdentifier: try c.decodeIfPresent(String.self, forKey: .threadIdentifier) ?? "")
    }

    /// Writes only the keys that differ from their defaults, keeping stored rows small.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if !title.isEmpty { try c.encode(title, forKey: .title) }
        if !subtitle.isEmpty { try c.encode(subtitle, forKey: .subtitle) }
        if !body.isEmpty { try c.encode(body, forKey: .body) }
        try c.encodeIfPresent(badge, forKey: .badge)
        try c.encodeIfPresent(sound, forKey: .sound)
        if !userInfo.isEmpty { try c.encode(userInfo, forKey: .userInfo) }
        if !categoryIdentifier.isEmpty { try c.encode(categoryIdentifier, forKey: .categoryIdentifier) }
        if !threadIdentifier.isEmpty { try c.encode(threadIdentifier, forKey: .threadIdentifier) }
    }
}
