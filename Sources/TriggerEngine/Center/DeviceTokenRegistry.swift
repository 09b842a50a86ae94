/// Device tokens per recipient: register, update (register again) and unregister.
/// Tokens are hex strings of any even length (APNs tokens grew from 32 bytes,
/// so no length is assumed), stored lower-case.
public struct DeviceTokenRegistry: Sendable, Hashable {
    public private(set) var tokens: [String: Set<String>] = [:]

    public init() {}

    /// A registry holding `tokens` as stored (already normalized).
    init(tokens: [String: Set<String>]) { self.tokens = tokens }

    /// Registers `token` for `recipient`; `replacing` an old token updates it.
    /// - Throws: `DataError` for an empty, odd-length or non-hex token.
    public mutating func register(_ token: String, for recipient: String, replacing old: String? = nil) throws(DataError) {
        let normalized = try Self.normalize(token)
        if let old { tokens[recipient]?.remove(old.lowercased()) }
        tokens[recipient, default: []].insert(normalized)
    }

    /// Removes `token` (or every token with `nil`) of `recipient`.
    public mutating func unregister(_ token: String? = nil, for recipient: String) {
        if let token {
            tokens[recipient]?.remove(token.lowercased())
            if tokens[recipient]?.isEmpty == true { tokens[recipient] = nil }
        } else {
            tokens[recipient] = nil
        }
    }

    static func normalize(_ token: String) throws(DataError) -> String {
        let lower = token.lowercased()
        guard !lower.isEmpty, lower.utf8.count % 2 == 0,
              lower.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw DataError("device token '\(token)' must be a non-empty even-length hex string")
        }
        return lower
    }
}
