import ArgumentParser
import Foundation
@_spi(Internals) import TriggerEngine
#if PostgreSQL
import TriggerEngineCluster
#endif

/// `trigger-eval run`: the notification center live, on the wall clock, as a
/// sidecar for any language: NDJSON commands on stdin,
/// one reply per command once it is durable, delivery lines as fires fall due.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the notification center live: commands on stdin, replies and deliveries on stdout.",
        discussion: """
            trigger-eval run --store center.sqlite < commands.ndjson > deliveries.ndjson

            Commands, one JSON object a line: {"add": REQUEST}, {"remove": [ID, …]}, \
            {"removeDelivered": [ID, …]}, {"category": CATEGORY}, {"fix": {"device", "time", "lat", "lon"}}, \
            {"push": {"payload": {…}}}, {"respond": {"identifier", "action", "text"}}, {"pending": true}, \
            {"authorize": {"recipient", "status"}}; "recipient" beside add, fix and push names whose it is.
            Every command gets one reply line once it is durable; deliveries are \
            {"delivery": ID, "time", "identifier", "trigger", "title"} lines, at least once, \
            with an ID stable per fire. SIGTERM or SIGINT: the line being written is finished, the store closed, exit 0.
            """
    )

    @Option(help: "The center's SQLite store, created when missing (without it, nothing survives the process); or postgres://user@host:port/database, a store shared by a cluster of `run` processes.")
    var store: String?

    @OptionGroup var zone: ZoneOption

    @Flag(help: "Stop once standard input is closed and nothing is pending.")
    var exitWhenIdle = false

    @Option(help: "With a postgres:// store: how long a node holds the fires it claimed, in seconds (a node that dies delays them this long).")
    var lease: Double = 10

    func run() async throws {
        let zone = try self.zone.rules()
        if let store, store.hasPrefix("postgres://") || store.hasPrefix("postgresql://") {
            return try await runNode(url: PostgresURL(store), zone: zone)
        }
        let notificationStore = try store.map { try NotificationStore(path: $0) }
        if store == nil { Diagnostics.warn("no --store: requests and deliveries live only as long as this process") }
        let center = try await UserNotificationCenter.open(clock: WallClock(), floatingZone: zone, store: notificationStore)
        for record in center.setAsideRecords {
            Diagnostics.warn("\(store ?? ""): set aside, does not decode: \(record)")
        }
        // A server has no dialog: the default recipient is authorized unless told otherwise.
        if await center.notificationSettings().authorizationStatus == .notDetermined {
            try await center.requestAuthorization(options: [.alert, .badge, .sound])
        }
        await center.setIssueHandler { issue in RunSession.warn(about: issue) }
        try await serve(center, zone: zone) { handler in try await center.run(delivering: handler) }
        // The store is closed before the process ends (the contract: SIGTERM closes the store).
        try notificationStore?.close()
    }

    /// `run` as a node of a cluster on a PostgreSQL store.
    private func runNode(url: PostgresURL, zone: ZoneRules) async throws {
        guard lease.isFinite, lease > 0, lease <= 3_600 else { throw ValidationError("--lease \(lease) must be in (0, 3600] seconds") }
        let store = try await PostgresStore(url: url)
        defer { store.close() }
        let center = ClusterCenter(store: store, configuration: try ClusterConfiguration(lease: .milliseconds(Int64(lease * 1_000))),
                                   floatingZone: zone)
        if try await center.notificationSettings().authorizationStatus == .notDetermined {
            try await center.authorize(.authorized, for: "")
        }
        await center.setIssueHandler { issue in RunSession.warn(about: issue) }
        try await serve(center, zone: zone) { handler in try await center.run(delivering: handler) }
    }

    /// Reads commands, replies, and writes deliveries until a signal, the end
    /// of input with `--exit-when-idle`, or a failed output.
    private func serve(_ center: any SidecarCenter, zone: ZoneRules,
                       running: (@escaping @Sendable (Delivery) async throws -> Void) async throws -> Void) async throws {
        signal(SIGPIPE, SIG_IGN)
        let output = LineWriter()
        let session = RunSession(center: center, output: output, zone: zone)
        let signals = ShutdownSignals { Task { await session.shutdown() } }
        defer { signals.cancel() }

        // One decoder for the reading thread: making one per line costs as much as decoding.
        let decoder = JSONDecoder()
        let input = StandardInputLines { bytes in RunSession.parse(bytes, using: decoder) }
        let exitWhenIdle = exitWhenIdle
        let commands = Task {
            await session.process(input)
            // Cancelled: the run is over (a signal, or stdout failed); idle or not, nothing is awaited.
            if exitWhenIdle, !Task.isCancelled {
                await center.waitForIdle()
                await session.shutdown()
            }
        }
        await session.setCommandTask(commands)
        try await running { delivery in
            do {
                try output.write([RunSession.line(for: delivery, zone: zone)])
            } catch {
                // Nobody reads the deliveries any more: stop, the fire stays due in the store.
                await session.fail(error)
                throw error
            }
        }
        commands.cancel()
        await commands.value
        if let failure = await session.failure { throw failure }
    }
}

/// What `trigger-eval run` does with its commands, its output and its end.
actor RunSession {
    let center: any SidecarCenter
    let output: LineWriter
    let zone: ZoneRules
    private var commandTask: Task<Void, Never>?
    private(set) var failure: (any Error)?

    init(center: any SidecarCenter, output: LineWriter, zone: ZoneRules) {
        self.center = center
        self.output = output
        self.zone = zone
    }

    func setCommandTask(_ task: Task<Void, Never>) { commandTask = task }

    /// SIGTERM, SIGINT, or idle with `--exit-when-idle`: no further command is
    /// taken, the run loop returns after the delivery in flight.
    func shutdown() async {
        commandTask?.cancel()
        await center.stop()
    }

    /// Standard output failed: stop with an error.
    func fail(_ error: any Error) async {
        if failure == nil { failure = error }
        await shutdown()
    }

    /// Handles every batch of input lines, in order, replying to each line once
    /// its command is durable. Adds that arrived together are committed together.
    func process(_ input: StandardInputLines<Result<RunCommand, DataError>>) async {
        for await batch in input.batches {
            if Task.isCancelled { break }
            let commands = batch.map { (number: $0.number, command: $0.parsed) }
            var index = 0
            while index < commands.count, failure == nil {
                let replies: [String]
                if case .success(.add(_, let recipient)) = commands[index].command {
                    // The adds of one recipient that follow, in one transaction.
                    var group: [(number: Int, request: NotificationRequest)] = []
                    while index < commands.count, case .success(.add(let request, let next)) = commands[index].command,
                          next == recipient {
                        group.append((commands[index].number, request))
                        index += 1
                    }
                    replies = await add(group, for: recipient)
                } else {
                    replies = [await reply(to: commands[index].command, line: commands[index].number)]
                    index += 1
                }
                // Each answer as soon as its command is durable.
                do {
                    try output.write(replies)
                } catch {
                    await fail(error)
                }
            }
            input.batchHandled()
            if failure != nil { break }
        }
    }

    /// A line's command (`nil`: a line over the length limit).
    static func parse(_ bytes: Data?, using decoder: JSONDecoder) -> Result<RunCommand, DataError> {
        guard let bytes else { return .failure(DataError("line longer than \(maximumInputLineLength) bytes")) }
        return Result { () throws(DataError) in try RunCommand(line: bytes, using: decoder) }
    }

    /// Adds a group in one transaction; if the store refuses it, one by one,
    /// so that each line gets its own answer.
    private func add(_ group: [(number: Int, request: NotificationRequest)], for recipient: String) async -> [String] {
        do {
            try await center.addRequests(group.map(\.request), for: recipient)
            return group.map { "{\"ok\":\"add\",\"identifier\":\(JSONText.quoted($0.request.identifier))}" }
        } catch {
            guard group.count > 1 else { return [Self.error(error, line: group[0].number)] }
        }
        var replies: [String] = []
        for (number, request) in group {
            replies.append(await reply(to: .success(.add(request, recipient: recipient)), line: number))
        }
        return replies
    }

    private func reply(to command: Result<RunCommand, DataError>, line: Int) async -> String {
        do {
            switch try command.get() {
            case .add(let request, let recipient):
                try await center.addRequests([request], for: recipient)
                return "{\"ok\":\"add\",\"identifier\":\(JSONText.quoted(request.identifier))}"
            case .remove(let identifiers):
                try await center.remove(identifiers)
                return "{\"ok\":\"remove\"}"
            case .removeDelivered(let identifiers):
                try await center.removeDelivered(identifiers)
                return "{\"ok\":\"removeDelivered\"}"
            case .category(let category):
                try await center.register(category)
                return "{\"ok\":\"category\",\"identifier\":\(JSONText.quoted(category.identifier))}"
            case .fix(let fix, let recipient):
                try await center.take(fix, for: recipient)
                return "{\"ok\":\"fix\"}"
            case .push(let payload, let identifier, let recipient):
                let identifier = identifier ?? UUID().uuidString
                try await center.push(payload, identifier: identifier, for: recipient)
                return "{\"ok\":\"push\",\"identifier\":\(JSONText.quoted(identifier))}"
            case .respond(let identifier, let action, let text):
                let response = try await center.response(to: identifier, action: action, text: text)
                return "{\"ok\":\"respond\",\"identifier\":\(JSONText.quoted(identifier)),\"action\":"
                    + JSONText.quoted(response?.actionIdentifier ?? action) + (response == nil ? ",\"routed\":false}" : "}")
            case .pending:
                return "{\"pending\":\(JSONText.array(try await center.pendingIdentifierList()))}"
            case .authorize(let recipient, let status):
                try await center.authorize(status, for: recipient)
                return "{\"ok\":\"authorize\"}"
            }
        } catch {
            return Self.error(error, line: line)
        }
    }

    private static func error(_ error: any Error, line: Int) -> String {
        let message = (error as? DataError)?.message ?? "\(error)"
        return "{\"error\":\(JSONText.quoted("line \(line): \(message)"))}"
    }

    /// A delivery line: the instant it was due, with the offset of the
    /// trigger's zone (the floating zone for the others), as `simulate` writes.
    static func line(for delivery: Delivery, zone: ZoneRules) -> String {
        let request = delivery.notification.request
        let due = Simulate.format(delivery.due, zone: request.trigger?.fixedZone ?? zone)
        var line = "{\"delivery\":\(JSONText.quoted(delivery.id.rawValue)),\"time\":\(JSONText.quoted(due)),"
            + "\"identifier\":\(JSONText.quoted(request.identifier)),\"trigger\":\(JSONText.quoted(delivery.triggerKind.rawValue)),"
            + "\"title\":\(JSONText.quoted(request.content.title))"
        if !delivery.notification.recipient.isEmpty {
            line += ",\"recipient\":\(JSONText.quoted(delivery.notification.recipient))"
        }
        if let event = delivery.regionEvent {
            line += ",\"event\":\(JSONText.quoted(event.kind.rawValue)),\"device\":\(JSONText.quoted(event.device))"
        }
        return line + "}"
    }

    /// An issue, as a warning on stderr.
    static func warn(about issue: CenterIssue) {
        switch issue {
        case .notDelivered(let fire):
            Diagnostics.warn("\(fire.id): not delivered: \(fire.reason)")
        case .handOverFailed(let delivery, let error, let attempt, let retryAt):
            Diagnostics.warn("\(delivery.id): writing the delivery failed (attempt \(attempt)): \(error); again at \(RFC3339.string(from: retryAt))")
        case .storeFailed(let id, let error, let attempt, let retryAt):
            Diagnostics.warn("\(id): recording the delivery failed (attempt \(attempt)): \(error); again at \(RFC3339.string(from: retryAt))")
        case .unknownCategory(let delivery):
            Diagnostics.warn("\(delivery.id): category '\(delivery.notification.request.content.categoryIdentifier)' is not registered")
        }
    }
}

/// SIGTERM and SIGINT, caught instead of killing the process, call `handler`.
final class ShutdownSignals {
    private let sources: [any DispatchSourceSignal]

    init(_ handler: @escaping @Sendable () -> Void) {
        sources = [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}
