import Foundation

/// A remote notification payload in APNs form (Apple, "Generating a remote
/// notification"): `aps.alert` (a string or `title`/`subtitle`/`body`),
/// `aps.badge`, `aps.sound`, `aps.category`, `aps.thread-id`; every other
/// top-level key goes to `userInfo`.
public struct PushPayload: Sendable, Hashable {
    /// APNs rejects payloads larger than this for regular remote notifications.
    public static let maximumSize = 4096

    public var content: NotificationContent

    /// Parses a payload.
    /// - Throws: `DataError` when it is over 4096 bytes, not a JSON object, or
    ///   lacks an `aps` dictionary.
    public init(data: Data) throws(DataError) {
        guard data.count <= Self.maximumSize else {
            throw DataError("push payload is \(data.count) bytes; APNs allows at most \(Self.maximumSize)")
        }
        let value = try JSONInput.decode(UserInfoValue.self, from: data)
        try self.init(value: value)
    }

    /// Reads an already-decoded payload (its size is checked as compact JSON).
    public init(value: UserInfoValue) throws(DataError) {
        guard case .object(var object) = value else { throw DataError("push payload must be a JSON object") }
        guard case .object(let aps)? = object.removeValue(forKey: "aps") else {
            throw DataError("push payload has no 'aps' dictionary")
        }
        var content = NotificationContent(userInfo: object)
        switch aps["alert"] {
        case .string(let body)?: content.body = body
        case .object(let alert)?:
            if case .string(let text)? = alert["title"] { content.title = text }
            if case .string(let text)? = alert["subtitle"] { content.subtitle = text }
            if case .string(let text)? = alert["body"] { content.body = text }
        default: break
        }
        if case .number(let badge)? = aps["badge"], let integer = Int(exactly: badge) { content.badge = integer }
        if case .string(let sound)? = aps["sound"] { content.sound = sound == "default" ? .default : .named(sound) }
        if case .string(let category)? = aps["category"] { content.categoryIdentifier = category }
        if case .string(let thread)? = aps["thread-id"] { content.threadIdentifier = thread }
        self.content = content
    }
}
