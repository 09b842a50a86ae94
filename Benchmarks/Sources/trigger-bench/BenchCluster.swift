import ArgumentParser
import Foundation
import Synchronization
@_spi(Internals) import TriggerEngine
import TriggerEngineCluster

/// `trigger-bench cluster`: several `ClusterCenter` nodes on one local
/// PostgreSQL server (issue 16): acknowledged adds, fires per second and
/// lateness with 1, 2 and 3 nodes, the time to take over a dead node's fires,
/// and PgQueuer on the same number of jobs on the same server.
struct BenchCluster: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cluster",
        abstract: "Clustered delivery on PostgreSQL with 1, 2 and 3 nodes, take-over after a dead node, vs PgQueuer."
    )

    @Option(help: "Fires per run.")
    var jobs = 100_000

    @Option(help: "Seconds the fires are spread over (0: all due at once, which measures throughput).")
    var windows: [Double] = [10, 0]

    @Option(help: "A server to use (postgres://…); by default one is started with scripts/postgres-server.")
    var url: String?

    @Flag(inversion: .prefixedNo, help: "Run PgQueuer on the same jobs.")
    var peer = true

    @Flag(inversion: .prefixedNo, help: "Measure the take-over of a dead node's fires (one lease, 10 s).")
    var takeover = true

    @Option(help: "Location fixes to time through the nodes (0: skip).")
    var fixes = 2_000

    func run() async throws {
        print("trigger-bench cluster (load average \(BenchCenter.loadAverage()))")
        let server = try url.map { ($0, nil as String?) } ?? Self.startServer()
        defer { if let directory = server.1 { Self.stopServer(directory) } }
        let serverURL = try PostgresURL(server.0)
        print("  PostgreSQL at \(serverURL), \(jobs) fires per run")
        for window in windows {
            print("  fires due over \(window == 0 ? "no time (all at once)" : "\(window) s"):")
            for nodes in 1...3 { try await deliveries(nodes: nodes, window: window, url: serverURL) }
            if peer { runPeer(url: server.0, window: window) }
        }
        if takeover { try await takeOver(url: serverURL) }
        if fixes > 0 { try await fixCost(url: serverURL) }
        print("(load average \(BenchCenter.loadAverage()) at the end)")
    }

    // MARK: Deliveries

    /// What the nodes' handlers saw.
    final class Seen: Sendable {
        let lateness = Mutex<[Double]>([])
        let last = Mutex<Date>(.distantPast)
        func add(_ delivery: Delivery) {
            let now = Date()
            lateness.withLock { $0.append(now.timeIntervalSince(delivery.due) * 1_000) }
            last.withLock { $0 = max($0, now) }
        }
        var count: Int { lateness.withLock { $0.count } }
    }

    private func deliveries(nodes count: Int, window: Double, url: PostgresURL) async throws {
        try Self.resetDatabase(url)
        let store = try await PostgresStore(url: url)
        let adder = ClusterCenter(store: store, configuration: try ClusterConfiguration(node: "adder"))
        try await adder.setSettings(NotificationSettings(authorizationStatus: .authorized, options: [.alert]))
        // Adds, one by one (a sample) and in batches of 1,000, of requests far in the future: then removed.
        let sample = min(2_000, jobs)
        let far = try TimeIntervalTrigger(timeInterval: 86_400, repeats: false)
        let oneByOne = Date()
        for index in 0..<sample {
            try await adder.add(NotificationRequest(identifier: "one\(index)", content: NotificationContent(title: "x"),
                                                    trigger: .timeInterval(far)))
        }
        let oneRate = Double(sample) / Date().timeIntervalSince(oneByOne)
        try await adder.removeAllPendingNotificationRequests()
        // The fires: job i due at first + i × window / jobs, first 2 s after the adds end (planned from a first batch).
        let batchStart = Date()
        let plannedAddTime = 1.0 + Double(jobs) / 60_000
        let first = Date().addingTimeInterval(plannedAddTime + 2)
        var index = 0
        while index < jobs {
            let now = Date()
            let end = min(jobs, index + 1_000)
            let requests = try (index..<end).map { job in
                let due = first.addingTimeInterval(window * Double(job) / Double(jobs))
                return NotificationRequest(identifier: "job\(job)", content: NotificationContent(title: "job"),
                                           trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: max(0.001, due.timeIntervalSince(now)),
                                                                                          repeats: false)))
            }
            _ = try await adder.add(contentsOf: requests)
            index = end
        }
        let addRate = Double(jobs) / Date().timeIntervalSince(batchStart)
        store.close()
        // The nodes, each on a connection pool of its own.
        let seen = Seen()
        var centers: [ClusterCenter] = []
        var runs: [Task<Void, any Error>] = []
        for node in 0..<count {
            let center = ClusterCenter(store: try await PostgresStore(url: url, connections: 4),
                                       configuration: try ClusterConfiguration(node: "node\(node)", batchSize: 256))
            centers.append(center)
            runs.append(Task { try await center.run { delivery in seen.add(delivery) } })
        }
        let deadline = Date().addingTimeInterval(window + plannedAddTime + 120)
        while seen.count < jobs, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        for center in centers { await center.stop() }
        for run in runs { try await run.value }
        for center in centers { center.store.close() }
        let lateness = seen.lateness.withLock { $0 }
        let firstDue = max(first, Date.distantPast)
        let span = seen.last.withLock { $0 }.timeIntervalSince(firstDue)
        let stats = Stats(lateness)
        print(String(format: "    TriggerEngine %d node%@  adds %7.0f/s (one by one %5.0f/s)  fires %7.0f/s  lateness ms p50 %7.1f  p99 %7.1f  mean %7.1f  max %7.1f  (%d of %d delivered)",
                     count, count == 1 ? " " : "s", addRate, oneRate, Double(lateness.count) / span,
                     stats.median, stats.p99, stats.mean, stats.max, lateness.count, jobs))
    }

    private func runPeer(url: String, window: Double) {
        for workers in [1, 3] {
            guard let result = PythonPeer.run(script: "bench-cluster-peer.py",
                                              arguments: ["--url", url, "--jobs", String(jobs), "--workers", String(workers),
                                                          "--window", String(window)],
                                              label: "PgQueuer", module: "pgqueuer", requiring: "fires_per_s") else { return }
            let lateness = result["lateness_ms"] as? [String: Double] ?? [:]
            print(String(format: "    PgQueuer %@ %d worker%@  adds %7.0f/s (one by one %5.0f/s)  fires %7.0f/s  lateness ms p50 %7.1f  p99 %7.1f  mean %7.1f  max %7.1f  (%d delivered, %d twice)",
                         result["version"] as? String ?? "?", workers, workers == 1 ? " " : "s",
                         result["enqueue_per_s"] as? Double ?? 0, result["enqueue_one_per_s"] as? Double ?? 0,
                         result["fires_per_s"] as? Double ?? 0, lateness["p50"] ?? 0, lateness["p99"] ?? 0,
                         lateness["mean"] ?? 0, lateness["max"] ?? 0,
                         result["delivered"] as? Int ?? 0, result["duplicates"] as? Int ?? 0))
        }
    }

    // MARK: Take-over

    /// A node claims 1,000 due fires and dies (never finishes them); a second
    /// node, running, takes them over when the lease (the default 10 s) expires.
    private func takeOver(url: PostgresURL) async throws {
        try Self.resetDatabase(url)
        let store = try await PostgresStore(url: url)
        let adder = ClusterCenter(store: store, configuration: try ClusterConfiguration(node: "adder"))
        try await adder.setSettings(NotificationSettings(authorizationStatus: .authorized, options: [.alert]))
        let count = 1_000
        let requests = (0..<count).map { NotificationRequest(identifier: "t\($0)", content: NotificationContent(title: "t"), trigger: nil) }
        let dead = ClusterCenter(store: store, configuration: try ClusterConfiguration(node: "dead", batchSize: count))
        _ = try await adder.add(contentsOf: requests)
        // The dead node: it takes everything in one claim and never finishes a hand-over.
        let died = Date()
        let dying = Task { try await dead.run { _ in try await Task.sleep(for: .seconds(3_600)) } }
        try await Task.sleep(for: .milliseconds(300))
        dying.cancel()
        let seen = Seen()
        let live = ClusterCenter(store: try await PostgresStore(url: url), configuration: try ClusterConfiguration(node: "live"))
        let run = Task { try await live.run { delivery in seen.add(delivery) } }
        let deadline = Date().addingTimeInterval(60)
        var firstSeen: Date?
        while seen.count < count, Date() < deadline {
            if firstSeen == nil, seen.count > 0 { firstSeen = Date() }
            try await Task.sleep(for: .milliseconds(5))
        }
        await live.stop()
        try await run.value
        live.store.close()
        store.close()
        let last = seen.last.withLock { $0 }
        print(String(format: "  take-over of a dead node's %d fires (lease 10 s, from its claim): first after %.2f s, all %d after %.2f s",
                     count, (firstSeen ?? last).timeIntervalSince(died), seen.count, last.timeIntervalSince(died)))
    }

    // MARK: Fixes

    /// The cost of a location fix in a cluster: 200 circles, fixes of 20 devices
    /// walking across them, each fix to one node at random (three nodes) or all to one.
    private func fixCost(url: PostgresURL) async throws {
        try Self.resetDatabase(url)
        var random = BenchRandom(seed: 5)
        let start = Date()
        let clock = ManualClock(now: start)
        var nodes: [ClusterCenter] = []
        for index in 0..<3 {
            nodes.append(ClusterCenter(store: try await PostgresStore(url: url, connections: 2),
                                       configuration: try ClusterConfiguration(node: "n\(index)"), clock: clock))
        }
        let requests = try (0..<200).map { index in
            NotificationRequest(identifier: "zone\(index)", content: NotificationContent(title: "zone"),
                                trigger: .location(LocationTrigger(region: try Region.circle(
                                    center: Coordinate(latitude: 45 + Double(index % 20) * 0.002, longitude: 14 + Double(index / 20) * 0.002),
                                    radius: 150), repeats: true)))
        }
        _ = try await nodes[0].add(contentsOf: requests)
        for spread in [true, false] {
            var seconds: [Double] = []
            for step in 0..<fixes {
                let device = "device\(step % 20)"
                let fix = LocationFix(device: device, time: start.addingTimeInterval(Double(step + 1) + (spread ? 0 : Double(fixes))),
                                      coordinate: Coordinate(latitude: 45 + Double(random.next() % 400) / 10_000,
                                                             longitude: 14 + Double(random.next() % 200) / 10_000))
                clock.advance(to: fix.time)
                let node = spread ? nodes[Int(random.next() % 3)] : nodes[0]
                let began = Date()
                try await node.ingest(fix)
                seconds.append(Date().timeIntervalSince(began) * 1_000)
            }
            let stats = Stats(seconds)
            print(String(format: "  a location fix (200 circles, 20 devices), %@: p50 %.2f ms  p99 %.2f ms  mean %.2f ms  max %.2f ms",
                         spread ? "each to one of 3 nodes at random" : "all to one node", stats.median, stats.p99, stats.mean, stats.max))
        }
        for node in nodes { node.store.close() }
    }

    // MARK: The server

    static func startServer() throws -> (String, String?) {
        let directory = "/tmp/bench-cluster-\(getpid())"
        let script = Repository.path("scripts/postgres-server")
        let result = try shell(script, ["start", directory])
        guard result.status == 0 else { throw ValidationError("postgres-server start failed: \(result.errors)") }
        return (result.output.trimmingCharacters(in: .whitespacesAndNewlines), directory)
    }

    static func stopServer(_ directory: String) {
        _ = try? shell(Repository.path("scripts/postgres-server"), ["stop", directory])
    }

    /// Empties the store's tables (a new database would need a server connection of its own).
    static func resetDatabase(_ url: PostgresURL) throws {
        let result = try shell("/usr/bin/env", ["psql", "-q", "-X", url.description, "-c",
                                                "DROP TABLE IF EXISTS te_schema, te_pending, te_event_fires, te_delivered, te_categories, te_authorization, te_device_tokens, te_devices, te_counters; DROP SEQUENCE IF EXISTS te_pending_add_order"])
        guard result.status == 0 else { throw ValidationError("resetting the database failed: \(result.errors)") }
    }

    static func shell(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        let errorPath = FileManager.default.temporaryDirectory.appendingPathComponent("bench-cluster-\(getpid()).err").path
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errorPath) }
        let errorFile = FileHandle(forWritingAtPath: errorPath)
        process.standardOutput = out
        process.standardError = errorFile
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? errorFile?.close()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self),
                (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "")
    }
}
