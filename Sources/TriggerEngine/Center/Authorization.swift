/// `UNAuthorizationOptions`: what a recipient is asked to allow.
public struct AuthorizationOptions: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let badge = AuthorizationOptions(rawValue: 1 << 0)
    public static let sound = AuthorizationOptions(rawValue: 1 << 1)
    public static let alert = AuthorizationOptions(rawValue: 1 << 2)
    /// Ask for nothing, deliver quietly to the notification list (iOS 12's provisional).
    public static let provisional = AuthorizationOptions(rawValue: 1 << 6)
}

/// `UNAuthorizationStatus`.
public enum AuthorizationStatus: String, Sendable, Hashable, Codable, CaseIterable {
    case notDetermined, denied, authorized, provisional, ephemeral
}

/// `UNNotificationSettings`, reduced to what a server can know.
public struct NotificationSettings: Sendable, Hashable {
    public var authorizationStatus: AuthorizationStatus
    public var options: AuthorizationOptions

    public init(authorizationStatus: AuthorizationStatus, options: AuthorizationOptions) {
        self.authorizationStatus = authorizationStatus
        self.options = options
    }

    /// Whether a delivery reaches the recipient at all: denied and not yet
    /// determined ones do not (Apple delivers nothing before the user answers).
    public var allowsDelivery: Bool {
        switch authorizationStatus {
        case .authorized, .provisional, .ephemeral: return true
        case .denied, .notDetermined: return false
        }
    }

    /// Provisional deliveries are quiet: no banner, no sound, list only.
    public var isQuiet: Bool { authorizationStatus == .provisional }
}
