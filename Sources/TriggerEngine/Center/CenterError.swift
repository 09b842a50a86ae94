import Foundation

/// What a center's call can fail with.
public enum CenterError: Error, Sendable, CustomStringConvertible {
    /// The store could not write (or read) what the call needed; nothing of
    /// the call took effect. `StoreError.kind` says whether trying again helps.
    case store(StoreError)
    /// `advance(to:)`, `ingest` or `receivePush` stopped on a store failure
    /// after making `deliveries` (each recorded). The fire it stopped at was
    /// not handed over and is still due; the next call delivers it.
    case interrupted(deliveries: [Delivery], underlying: StoreError)
    /// A location fix was not used.
    case fixRefused(LocationFixRefusal)
    /// `run()` was called while the center was already running.
    case alreadyRunning
    /// `run()` was called without a delivery handler (`setDeliveryHandler`).
    case noDeliveryHandler
    /// `respond` named a request that has not been delivered.
    case notDelivered(identifier: String)
    /// `respond` named an action that is not in the delivered notification's
    /// category (`actions` are the category's, empty when it has none).
    case actionNotInCategory(identifier: String, action: String, category: String, actions: [String])
    /// `respond` gave text to an action without text input.
    case actionTakesNoText(identifier: String, action: String)

    public var description: String {
        switch self {
        case .store(let error): return "the notification store failed: \(error)"
        case .interrupted(let deliveries, let error):
            return "stopped after \(deliveries.count) deliveries: the notification store failed: \(error)"
        case .fixRefused(let refusal): return "fix refused: \(refusal)"
        case .alreadyRunning: return "the center is already running"
        case .noDeliveryHandler: return "the center has no delivery handler to run with"
        case .notDelivered(let identifier): return "response to '\(identifier)', which has not been delivered"
        case .actionNotInCategory(let identifier, let action, let category, let actions):
            return "response to '\(identifier)': action '\(action)' is not in its category '\(category)'"
                + (actions.isEmpty ? "" : " (expected the default or dismiss identifier or one of \(actions.joined(separator: ", ")))")
        case .actionTakesNoText(let identifier, let action):
            return "response to '\(identifier)': action '\(action)' takes no text"
        }
    }
}

/// Why a location fix was refused.
public enum LocationFixRefusal: Sendable, Hashable, CustomStringConvertible {
    /// Latitude, longitude or accuracy out of range or not finite.
    case invalidValue
    /// Older than (or as old as) the device's last fix: fixes of a device are taken in order.
    case notAfterPrevious(previous: Date)
    /// Older than `LocationPolicy.maximumAge` on the center's clock.
    case tooOld(age: Duration)
    /// Later than the center's clock by more than `LocationPolicy.maximumLead`.
    case inTheFuture(lead: Duration)

    public var description: String {
        switch self {
        case .invalidValue: return "latitude, longitude or accuracy out of range"
        case .notAfterPrevious(let previous):
            return "not after the device's previous fix (\(RFC3339.string(from: previous)))"
        case .tooOld(let age): return "older than the center's clock allows (\(age) old)"
        case .inTheFuture(let lead): return "ahead of the center's clock by \(lead)"
        }
    }
}
