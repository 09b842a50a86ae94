import Foundation

/// A notification to deliver when its trigger fires: `UNNotificationRequest`.
/// Adding a request whose identifier is pending replaces it.
public struct NotificationRequest: Sendable, Codable, Hashable {
    public var identifier: String
    public var content: NotificationContent
    /// `nil`: deliver at once (as Apple's `trigger: nil`).
    public var trigger: NotificationTrigger?
    /// What to do with fires missed while the dispatcher was down.
    public var misfirePolicy: MisfirePolicy
    /// When the request was added (time-interval triggers count from it);
    /// `nil` until the center or dispatcher adds it.
    public var added: Date?

    public init(identifier: String, content: NotificationContent, trigger: NotificationTrigger?,
                misfirePolicy: MisfirePolicy = .fireOnceNow, added: Date? = nil) {
        self.identifier = identifier
        self.content = content
        self.trigger = trigger
        self.misfirePolicy = misfirePolicy
        self.added = added
    }

    enum CodingKeys: String, CodingKey { case identifier, content, trigger, misfire, added }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let identifier = try c.decode(String.self, forKey: .identifier)
        guard !identifier.isEmpty else { throw DataError("a request's identifier must not be empty") }
        var added: Date?
        if let text = try c.decodeIfPresent(String.self, forKey: .added) {
            guard let date = RFC3339.date(from: text) else {
                throw DataError("request '\(identifier)': added '\(text)' is not an RFC 3339 instant")
            }
            added = date
        }
        do {
            self.init(identifier: identifier,
                      content: try c.decodeIfPresent(NotificationContent.self, forKey: .content) ?? NotificationContent(),
                      trigger: try c.decodeIfPresent(NotificationTrigger.self, forKey: .trigger),
                      misfirePolicy: try c.decodeIfPresent(MisfirePolicy.self, forKey: .misfire) ?? .fireOnceNow,
                      added: added)
        } catch let error as DataError {
            throw DataError("request '\(identifier)': \(error.message)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(identifier, forKey: .identifier)
        try c.encode(content, forKey: .content)
        try c.encodeIfPresent(trigger, forKey: .trigger)
        if misfirePolicy != .fireOnceNow { try c.encode(misfirePolicy, forKey: .misfire) }
        if let added { try c.encode(RFC3339.string(from: added), forKey: .added) }
    }
}

extension NotificationRequest {
    /// Decodes request JSON, turning any decoding failure into a `DataError` that
    /// names what is wrong (the path of the bad key and why).
    public init(json data: Data) throws(DataError) {
        self = try JSONInput.decode(NotificationRequest.self, from: data)
    }
}
