import Foundation

/// A `trigger-eval simulate` scenario (the command-line contract; the CenterAndDispatcher article): a time span, a default
/// zone, categories, requests, and the outside world's events — location fixes
/// from a log file, pushes, and user responses.
package struct Scenario: Sendable {
    /// One remote notification arriving.
    package struct Push: Sendable, Decodable {
        package var time: Date
        package var identifier: String?
        /// The APNs payload, as raw JSON bytes (its size is checked as written compactly).
        package var payload: Data
    }

    /// What a user did with a delivered notification.
    package struct Response: Sendable, Decodable {
        package var time: Date
        package var identifier: String
        package var action: String
        package var text: String?
    }

    package var from: Date
    package var to: Date
    package var timeZone: ZoneRules
    package var categories: [NotificationCategory]
    package var requests: [NotificationRequest]
    /// The location log, resolved against the scenario file's directory.
    package var fixesPath: String?
    /// The device to follow in the log; `nil` when the log has one device.
    package var device: String?
    package var pushes: [Push]
    package var responses: [Response]
    /// The recipient's authorization (default authorized).
    package var authorization: AuthorizationStatus

    /// Reads a scenario file.
    /// - Parameter path: the file's path, for resolving `fixes` and for messages.
    /// - Throws: `DataError` (located at `path`) naming what is wrong.
    package init(data: Data, path: String) throws(DataError) {
        let raw: RawScenario
        do {
            raw = try JSONInput.decode(RawScenario.self, from: data)
        } catch {
            throw error.located(at: InputLocation(file: path))
        }
        do {
            try self.init(raw: raw, path: path)
        } catch {
            throw error.located(at: InputLocation(file: path))
        }
    }

    init(raw: RawScenario, path: String) throws(DataError) {
        func instant(_ text: String, _ what: String) throws(DataError) -> Date {
            guard let date = RFC3339.date(from: text) else {
                throw DataError("\(what) '\(text)' is not an RFC 3339 instant (e.g. 2026-11-22T09:30:00Z)")
            }
            return date
        }
        from = try instant(raw.from, "from")
        to = try instant(raw.to, "to")
        guard from <= to else { throw DataError("from \(raw.from) is after to \(raw.to)") }
        timeZone = try ZoneRules.named(raw.timeZone ?? "UTC")
        categories = raw.categories ?? []
        try NotificationCategory.validate(categories)
        requests = raw.requests ?? []
        var seen = Set<String>()
        for request in requests where !seen.insert(request.identifier).inserted {
            throw DataError("request identifier '\(request.identifier)' appears twice (a later add would replace the earlier one)")
        }
        if let fixes = raw.fixes {
            let base = URL(fileURLWithPath: path).deletingLastPathComponent()
            fixesPath = fixes.hasPrefix("/") || fixes == "-" ? fixes : base.appendingPathComponent(fixes).path
        }
        device = raw.device
        pushes = []
        for (index, push) in (raw.pushes ?? []).enumerated() {
            let payload: Data
            do { payload = try JSONEncoder().encode(push.payload) } catch { throw DataError("pushes[\(index)]: payload is not JSON") }
            pushes.append(Push(time: try instant(push.time, "pushes[\(index)].time"), identifier: push.identifier,
                               payload: payload))
        }
        responses = []
        for (index, response) in (raw.responses ?? []).enumerated() {
            responses.append(Response(time: try instant(response.time, "responses[\(index)].time"),
                                      identifier: response.identifier, action: response.action, text: response.text))
        }
        authorization = try raw.authorization.map { text throws(DataError) in
            guard let status = AuthorizationStatus(rawValue: text) else {
                throw DataError("authorization '\(text)' must be one of \(AuthorizationStatus.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return status
        } ?? .authorized
    }

    struct RawScenario: Decodable {
        struct RawPush: Decodable { var time: String; var identifier: String?; var payload: UserInfoValue }
        struct RawResponse: Decodable { var time: String; var identifier: String; var action: String; var text: String? }
        var from: String
        var to: String
        var timeZone: String?
        var categories: [NotificationCategory]?
        var requests: [NotificationRequest]?
        var fixes: String?
        var device: String?
        var pushes: [RawPush]?
        var responses: [RawResponse]?
        var authorization: String?
    }
}
