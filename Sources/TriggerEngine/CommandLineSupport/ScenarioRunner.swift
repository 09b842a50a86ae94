import Foundation

/// Runs a `Scenario` on a center with a virtual clock, from `from` to `to`,
/// merging clock fires with the scenario's fixes, pushes and responses in time
/// order (at one instant: clock fires, then fixes, pushes, responses).
package struct ScenarioRunner {
    /// One line of the timeline.
    package enum Event: Sendable {
        case delivery(Delivery)
        case response(NotificationResponse)
    }

    /// What happened, for the summary line.
    package struct Summary: Sendable, Hashable {
        package var deliveries = 0
        package var responses = 0
        package var denied = 0
        package var droppedDismisses = 0
        package var fixesUsed = 0
        package var fixesSkipped = 0
    }

    package let scenario: Scenario

    package init(scenario: Scenario) { self.scenario = scenario }

    enum External {
        case fix(LocationFix)
        case push(Scenario.Push, index: Int)
        case response(Scenario.Response, index: Int)

        var rank: Int {
            switch self {
            case .fix: return 0
            case .push: return 1
            case .response: return 2
            }
        }
    }

    /// Runs the scenario, calling `emit` for each timeline event in order.
    /// - Throws: `DataError` for a bad fix log, push or response (named),
    ///   `InputFileError` when the fix log cannot be read.
    package func run(emit: (Event) throws -> Void) async throws -> Summary {
        var summary = Summary()
        let center = try UserNotificationCenter(now: scenario.from, floatingZone: scenario.timeZone)
        let status = scenario.authorization
        await center.setAuthorizationAnswer { _, _ in status }
        try await center.requestAuthorization(options: [.alert, .sound, .badge])
        try await center.setNotificationCategories(scenario.categories)
        for request in scenario.requests { try await center.add(request) }

        var externals: [(time: Date, event: External)] = []
        if let path = scenario.fixesPath {
            let (fixes, skipped) = try FixLogLoader.fixes(path: path, device: scenario.device)
            summary.fixesSkipped = skipped
            externals += fixes.map { ($0.time, .fix($0)) }
        }
        externals += scenario.pushes.enumerated().map { ($1.time, .push($1, index: $0)) }
        externals += scenario.responses.enumerated().map { ($1.time, .response($1, index: $0)) }
        externals = externals.enumerated().sorted {
            ($0.element.time, $0.element.event.rank, $0.offset) < ($1.element.time, $1.element.event.rank, $1.offset)
        }.map(\.element)

        func emitAll(_ deliveries: [Delivery]) throws {
            for delivery in deliveries where delivery.notification.date <= scenario.to {
                summary.deliveries += 1
                try emit(.delivery(delivery))
            }
        }
        for (time, event) in externals where time >= scenario.from && time <= scenario.to {
            switch event {
            case .fix(let fix):
                try emitAll(try await center.advance(to: time))
                do {
                    try emitAll(try await center.ingest(fix))
                    summary.fixesUsed += 1
                } catch CenterError.fixRefused {
                    // The log's own order and values were checked as it was read; a fix
                    // the center refuses (as old as the device's previous one) is skipped.
                    summary.fixesSkipped += 1
                }
            case .push(let push, let index):
                try emitAll(try await center.advance(to: time))
                do {
                    try emitAll(try await center.receivePush(push.payload, identifier: push.identifier ?? "push-\(index + 1)",
                                                             at: time))
                } catch let error as DataError {
                    throw DataError("pushes[\(index)]: \(error.message)")
                }
            case .response(let response, let index):
                try emitAll(try await center.advance(to: time))
                let routed: NotificationResponse?
                do {
                    routed = try await center.respond(toIdentifier: response.identifier, action: NotificationResponse.actionIdentifier(named: response.action),
                                                      text: response.text, at: time)
                } catch let error as CenterError {
                    throw DataError("responses[\(index)]: \(error)")
                }
                if let routed {
                    summary.responses += 1
                    try emit(.response(routed))
                }
            }
        }
        try emitAll(try await center.advance(to: scenario.to))
        summary.denied = await center.deniedCount
        summary.droppedDismisses = await center.droppedDismissCount
        return summary
    }
}
