internal import GRDB

/// Device tokens per recipient, so register/update/unregister survive a restart.
extension NotificationStore {
    /// Replaces `recipient`'s stored tokens with `tokens` (none: the recipient has no row left).
    package func saveDeviceTokens(_ tokens: Set<String>, for recipient: String) throws {
        try write([.saveDeviceTokens(tokens, recipient: recipient)])
    }

    /// Every recipient's stored tokens.
    package func loadDeviceTokens() throws -> [String: Set<String>] {
        try database.read { db in
            var result: [String: Set<String>] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT recipient, token FROM device_tokens") {
                result[row[0], default: []].insert(row[1])
            }
            return result
        }
    }
}
