#if PostgreSQL
import Foundation
@_spi(Internals) import TriggerEngine
import Logging
internal import PostgresNIO

/// PostgreSQL persistence for the nodes of a cluster (`ClusterCenter`): the
/// same state as the embedded `NotificationStore` (pending requests with their
/// next fire, delivered notifications, categories, authorization, device
/// tokens, event fires), plus what lets several processes share it: a lease
/// per claimed fire, each device's latest fix, and wake-ups by NOTIFY.
///
/// Through PostgresNIO: every call suspends the caller's task, none blocks a
/// thread of the cooperative pool. The store owns its connection pool; call
/// `close()` when done.
public final class PostgresStore: Sendable {
    /// Where it is.
    public let url: PostgresURL
    let client: PostgresClient
    private let runner: Task<Void, Never>
    let logger = Logger(label: "TriggerEngine.PostgresStore", factory: { _ in SwiftLogNoOpLogHandler() })
    /// The channel adds and event fires are announced on (payload: the earliest
    /// new fire, seconds since 1970).
    static let wakeChannel = "triggerengine_wake"

    /// Connects to `url` and creates or migrates the schema (`PostgresStore+Schema`).
    /// - Parameters:
    ///   - url: the server and database.
    ///   - connections: the most connections the pool opens.
    ///   - connectTimeout: how long the first contact may take (the pool itself retries for ever).
    /// - Throws: `InputFileError` naming the URL when the server cannot be
    ///   reached or holds a newer schema.
    public init(url: PostgresURL, connections: Int = 8, connectTimeout: Duration = .seconds(15)) async throws {
        self.url = url
        var configuration = PostgresClient.Configuration(host: url.host, port: url.port, username: url.user,
                                                         password: url.password, database: url.database, tls: .disable)
        configuration.options.maximumConnections = max(2, connections)
        configuration.options.connectTimeout = .seconds(10)
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        runner = Task { await client.run() }
        do {
            // The pool retries a refused connection for ever: the first contact is bounded.
            try await Self.within(connectTimeout, what: "no answer from \(url.host):\(url.port) within \(connectTimeout)") {
                try await self.prepareSchema()
            }
        } catch {
            runner.cancel()
            throw InputFileError(path: url.description, reason: "cannot open the PostgreSQL store: \(Self.describe(error))")
        }
    }

    /// Runs `body`, or throws `PostgresStoreError(what)` once `limit` has passed.
    private static func within(_ limit: Duration, what: String, _ body: @escaping @Sendable () async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await body()
                return true
            }
            group.addTask {
                try await Task.sleep(for: limit)
                return false
            }
            defer { group.cancelAll() }
            guard try await group.next() == true else { throw StoreError(.unavailable, what) }
        }
    }

    /// Closes every connection. Calls made afterwards fail.
    public func close() {
        runner.cancel()
    }

    deinit { runner.cancel() }

    /// A server error's message (PostgresNIO's own description hides it).
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            if let underlying = error.underlying { return "\(error.code): \(underlying)" }
            return "\(error.code)"
        }
        if let error = error as? PostgresTransactionError {
            return describe(error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError ?? error)
        }
        return "\(error)"
    }

    /// Runs `query` outside a transaction (one statement is atomic on its own).
    /// - Throws: `StoreError` with the server's message.
    @discardableResult
    func run(_ query: PostgresQuery) async throws -> PostgresRowSequence {
        do {
            return try await client.query(query, logger: logger)
        } catch {
            throw StoreError(classifyingPostgres: error)
        }
    }

    /// Runs `body` in a transaction: all or none. `body` runs in the caller's
    /// isolation (an actor's state may be read and changed in it).
    func transaction<Result>(isolation: isolated (any Actor)? = #isolation,
                             _ body: (PostgresConnection) async throws -> sending Result) async throws -> sending Result {
        do {
            return try await client.withTransaction(logger: logger, isolation: isolation, body)
        } catch let error as PostgresTransactionError {
            // The caller's own errors (a `DataError`, a `CenterError`) come back as themselves.
            if let inner = error.closureError, !(inner is PSQLError) { throw inner }
            throw StoreError(classifyingPostgres: error)
        } catch let error as PSQLError {
            throw StoreError(classifyingPostgres: error)
        }
    }
}

/// Seconds since 1970 as the store keeps instants.
extension Date {
    var storedSeconds: Double { timeIntervalSince1970 }
    init(storedSeconds: Double) { self.init(timeIntervalSince1970: storedSeconds) }
}
#endif
