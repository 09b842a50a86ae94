import Foundation

/// A fire the center took but did not hand over.
public struct UndeliveredFire: Sendable {
    /// Why it was not handed over.
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// The recipient has not allowed notifications (denied, or not asked
        /// yet). As on Apple's devices, the fire is spent: a one-shot request
        /// leaves the pending ones, a repeating one moves on to its next fire.
        case notAuthorized(AuthorizationStatus)
        /// The request was removed or replaced while the fire was in flight
        /// (while the delegate chose its presentation, or before an event fire
        /// was handed over): the fire is dropped with it.
        case removedInFlight

        public var description: String {
            switch self {
            case .notAuthorized(let status): return "recipient not authorized (\(status.rawValue))"
            case .removedInFlight: return "request removed or replaced while in flight"
            }
        }
    }

    /// The fire's identity.
    public var id: DeliveryID
    /// The request as it was when it fired.
    public var request: NotificationRequest
    /// Who it was for.
    public var recipient: String
    /// The instant it was due.
    public var due: Date
    /// Why it was not handed over.
    public var reason: Reason

    package init(id: DeliveryID, request: NotificationRequest, recipient: String, due: Date, reason: Reason) {
        self.id = id
        self.request = request
        self.recipient = recipient
        self.due = due
        self.reason = reason
    }
}

/// Something the embedder should know about that is not an error of a call:
/// reported to the handler set with `UserNotificationCenter.setIssueHandler(_:)`.
public enum CenterIssue: Sendable {
    /// A fire was taken but not handed over, for a reason.
    case notDelivered(UndeliveredFire)
    /// The delivery handler threw: the same delivery (same ID) is handed over
    /// again at `retryAt`; fires due meanwhile go on.
    case handOverFailed(Delivery, error: any Error, attempt: Int, retryAt: Date)
    /// A delivery was handed over but the store failed to record it: the
    /// record is written again at `retryAt` (the handler is not called again
    /// unless the process stops first: then it gets the fire again after a restart).
    case storeFailed(DeliveryID, error: any Error, attempt: Int, retryAt: Date)
    /// A delivery whose category is not registered was handed over without one.
    case unknownCategory(Delivery)
}
