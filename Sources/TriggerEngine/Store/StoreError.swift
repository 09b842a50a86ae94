/// A failure of the database behind a center (SQLite's or PostgreSQL's), in
/// terms an embedder can act on: `CenterError.store` and
/// `CenterError.interrupted` carry one.
///
/// The database library's own error is kept in `underlying` for logs, typed
/// `any Error` so that no dependency's type is part of this API.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it is, which says what to do about it.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Another connection held a lock past the timeout, or the transaction
        /// lost a serialization race: try again later.
        case busy
        /// The disk or a quota is full.
        case full
        /// The database could not be opened or reached, or the connection was lost.
        case unavailable
        /// The file is not a store, or the database reports damaged data.
        case corrupt
        /// The database refused the change (a constraint, a value too large
        /// for it): trying again will fail the same way.
        case refused
        /// The store was used after `NotificationStore.close()` or `PostgresStore.close()`.
        case closed
        /// Anything else.
        case other
    }

    /// What kind of failure it is.
    public let kind: Kind
    /// The database's message.
    public let message: String
    /// The database library's error, for logs (`nil` when the store raised this itself).
    public let underlying: (any Error)?

    /// Creates an error of `kind`.
    public init(_ kind: Kind, _ message: String, underlying: (any Error)? = nil) {
        self.kind = kind
        self.message = message
        self.underlying = underlying
    }

    public var description: String { "\(kind.rawValue): \(message)" }
}
