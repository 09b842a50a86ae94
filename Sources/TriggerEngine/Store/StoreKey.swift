/// The rule for the keys both stores match rows by (request identifiers,
/// recipients, category identifiers): no U+0000, which SQL matching through
/// GRDB cannot keep and PostgreSQL's `text` refuses.
package enum StoreKey {
    /// Throws when `key` (named by `what`) holds U+0000.
    package static func check(_ key: String, _ what: String) throws(DataError) {
        guard !key.utf8.contains(0) else {
            throw DataError("\(what) \(key.debugDescription) contains U+0000, which the store cannot keep in a key")
        }
    }
}
