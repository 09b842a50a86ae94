import Foundation

/// A pending request with whom it is for and when it fires next: what the
/// dispatcher queues, and what a store saves and loads back.
///
/// It belongs to the dispatcher's layer so that the dependency points one way:
/// the stores (SQLite, PostgreSQL) write and read this type; the dispatcher
/// knows no store.
@_spi(Internals) public struct ScheduledRequest: Sendable {
    @_spi(Internals) public var request: NotificationRequest
    /// The recipient (`""` for a single-user center).
    @_spi(Internals) public var recipient: String
    /// `nil` for location/push requests that wait for an event.
    @_spi(Internals) public var nextFire: Date?

    @_spi(Internals) public init(request: NotificationRequest, recipient: String = "", nextFire: Date?) {
        self.request = request
        self.recipient = recipient
        self.nextFire = nextFire
    }
}
