#if PostgreSQL
import Foundation
import Synchronization
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine
@testable import TriggerEngineCluster

/// Several nodes on one real PostgreSQL database (`TestPostgres`).
@Suite("Cluster: several centers on one PostgreSQL database", .serialized)
struct ClusterCenterTests {
    /// What the nodes handed over, in order.
    actor Collector {
        var ids: [DeliveryID] = []
        var byNode: [String: Int] = [:]
        var dates: [DeliveryID: Date] = [:]
        func add(_ delivery: Delivery, node: String) {
            ids.append(delivery.id)
            byNode[node, default: 0] += 1
            dates[delivery.id] = Date()
        }
        /// Waits until `count` hand-overs were seen or `limit` passed.
        func wait(for count: Int, atMost limit: Duration) async {
            let deadline = ContinuousClock.now + limit
            while ids.count < count, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        }
    }

    /// Starts `count` nodes, each on a store (a connection pool) of its own.
    static func nodes(_ count: Int, on url: PostgresURL, lease: Duration = .seconds(10),
                      collector: Collector) async throws -> (nodes: [ClusterCenter], runs: [Task<Void, any Error>]) {
        var nodes: [ClusterCenter] = []
        var runs: [Task<Void, any Error>] = []
        for index in 0..<count {
            let node = ClusterCenter(store: try await TestPostgres.store(url),
                                     configuration: try ClusterConfiguration(node: "node\(index)", lease: lease, batchSize: 64))
            try await node.setSettings(NotificationSettings(authorizationStatus: .authorized, options: [.alert]))
            nodes.append(node)
            runs.append(Task { try await node.run { delivery in await collector.add(delivery, node: "node\(index)") } })
        }
        return (nodes, runs)
    }

    static func stop(_ nodes: [ClusterCenter], _ runs: [Task<Void, any Error>]) async throws {
        for node in nodes { await node.stop() }
        for run in runs { try await run.value }
        for node in nodes { node.store.close() }
    }

    @Test("three nodes deliver each of 1,500 fires exactly once")
    func exactlyOnceUnderContention() async throws {
        let url = try TestPostgres.freshDatabase()
        let collector = Collector()
        let (nodes, runs) = try await Self.nodes(3, on: url, collector: collector)
        // Due at once and within the next second and a half, added through every node.
        var expected: Set<String> = []
        for batch in 0..<15 {
            var requests: [NotificationRequest] = []
            for index in 0..<100 {
                let identifier = "r\(batch)-\(index)"
                let trigger: NotificationTrigger? = index % 2 == 0 ? nil
                    : .timeInterval(try TimeIntervalTrigger(timeInterval: Double(1 + index % 3) * 0.5, repeats: false))
                requests.append(NotificationRequest(identifier: identifier, content: NotificationContent(title: identifier),
                                                    trigger: trigger))
                expected.insert(identifier)
            }
            _ = try await nodes[batch % 3].add(contentsOf: requests)
        }
        await collector.wait(for: expected.count, atMost: .seconds(60))
        // A little longer: a duplicate would come now.
        try await Task.sleep(for: .milliseconds(300))
        try await Self.stop(nodes, runs)
        let ids = await collector.ids
        #expect(ids.count == expected.count, "handed over \(ids.count) for \(expected.count) fires")
        #expect(Set(ids).count == ids.count, "a fire was handed over twice")
        #expect(Set(ids.map { $0.rawValue.components(separatedBy: "~").last! }) == expected)
        let store = try await TestPostgres.store(url)
        defer { store.close() }
        #expect(try await store.outstandingCount() == 0)
        #expect(try await store.loadDeliveredNotifications().count == expected.count)
    }

    @Test("a dead node's claims are delivered by another once the lease expires, with the same IDs")
    func leaseExpiryHandsFiresOver() async throws {
        let url = try TestPostgres.freshDatabase()
        let store = try await TestPostgres.store(url)
        defer { store.close() }
        let due = Date().addingTimeInterval(-1)
        let requests = (0..<20).map { index in
            NotificationRequest(identifier: "d\(index)", content: NotificationContent(title: "d"), trigger: nil, added: due)
        }
        try await store.write([.savePending(requests.map { .init(request: $0, nextFire: due) }),
                               .saveSettings(NotificationSettings(authorizationStatus: .authorized, options: []), recipient: "")])
        // A node claims everything and dies (never finishes).
        let claimedAt = ContinuousClock.now
        let claimed = try await store.claimDue(owner: "dead", through: Date(), limit: 100, lease: .seconds(2))
        #expect(claimed.fires.count == 20)
        let collector = Collector()
        let (nodes, runs) = try await Self.nodes(1, on: url, collector: collector)
        await collector.wait(for: 20, atMost: .seconds(30))
        let tookOver = ContinuousClock.now - claimedAt
        try await Task.sleep(for: .milliseconds(200))
        try await Self.stop(nodes, runs)
        let ids = await collector.ids
        #expect(Set(ids) == Set(requests.map { DeliveryID.clockFire(identifier: $0.identifier, added: due, due: due) }))
        #expect(ids.count == 20)
        // Not before the lease ran out, and not long after (the node wakes at the lease's end).
        #expect(tookOver >= .seconds(2) && tookOver < .seconds(4), "took over after \(tookOver)")
    }

    @Test("a replace and a remove racing a claim win over the claimer's finish")
    func replaceAndRemoveRacingAClaim() async throws {
        let url = try TestPostgres.freshDatabase()
        let store = try await TestPostgres.store(url)
        defer { store.close() }
        let node = ClusterCenter(store: store, configuration: try ClusterConfiguration(node: "adder"))
        let past = Date().addingTimeInterval(-120)
        let repeating = NotificationRequest(identifier: "rep", content: NotificationContent(title: "old"),
                                            trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: 60, repeats: true)),
                                            added: past)
        let once = NotificationRequest(identifier: "once", content: NotificationContent(title: "once"), trigger: nil, added: past)
        try await store.write([.savePending([.init(request: repeating, nextFire: past.addingTimeInterval(60)),
                                             .init(request: once, nextFire: past)])])
        let claimed = try await store.claimDue(owner: "slow", through: Date(), limit: 10, lease: .seconds(30)).fires
        #expect(Set(claimed.map(\.request.identifier)) == ["rep", "once"])
        // While "slow" hands them over: "rep" is replaced, "once" removed.
        let replacement = NotificationRequest(identifier: "rep", content: NotificationContent(title: "new"),
                                              trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: 3_600, repeats: true)))
        let firstFire = try #require(try await node.add(replacement))
        try await node.removePendingNotificationRequests(withIdentifiers: ["once"])
        try await store.finish(claimed.map { fire in
            PostgresStore.Finish(identifier: fire.request.identifier, generation: fire.generation,
                                 nextFire: fire.request.identifier == "rep" ? fire.due.addingTimeInterval(60) : nil,
                                 delivered: DeliveredNotification(request: fire.request, date: fire.due))
        }, events: [], owner: "slow")
        let pending = try await store.loadPendingRecords()
        #expect(pending.map(\.request.identifier) == ["rep"])
        #expect(pending.first?.request.content.title == "new")
        #expect(pending.first?.nextFire == firstFire)
        // The replacement is free to be claimed when due (no lease left on it).
        let later = try await store.claimDue(owner: "other", through: firstFire, limit: 10, lease: .seconds(30)).fires
        #expect(later.map(\.request.content.title) == ["new"])
    }

    @Test("a repeating request's next fire is written once when two nodes finished the same fire")
    func nextFireWrittenOnce() async throws {
        let url = try TestPostgres.freshDatabase()
        let store = try await TestPostgres.store(url)
        defer { store.close() }
        // Whole seconds: a `Date` made from seconds since 1970 does not always give the same seconds back.
        let added = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) - 90)
        let request = NotificationRequest(identifier: "tick", content: NotificationContent(title: "tick"),
                                          trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: 60, repeats: true)),
                                          added: added)
        let due = added.addingTimeInterval(60)
        try await store.write([.savePending([.init(request: request, nextFire: due)])])
        let first = try await store.claimDue(owner: "A", through: Date(), limit: 1, lease: .milliseconds(200)).fires
        #expect(first.count == 1)
        // Nobody else gets it while A's lease holds.
        #expect(try await store.claimDue(owner: "B", through: Date(), limit: 1, lease: .seconds(30)).fires.isEmpty)
        try await Task.sleep(for: .milliseconds(400))
        let second = try await store.claimDue(owner: "B", through: Date(), limit: 1, lease: .seconds(30)).fires
        #expect(second.map(\.due) == [due])
        for (owner, fire) in [("A", first[0]), ("B", second[0])] {
            try await store.finish([.init(identifier: "tick", generation: fire.generation, nextFire: due.addingTimeInterval(60),
                                          delivered: nil)], events: [], owner: owner)
            if owner == "A" {
                // A's lease was gone: its finish changed nothing.
                #expect(try await store.loadPendingRecords().map(\.nextFire) == [due])
            }
        }
        #expect(try await store.loadPendingRecords().map(\.nextFire) == [due.addingTimeInterval(60)])
        #expect(try await store.nextWakeDate() == due.addingTimeInterval(60))
    }

    @Test("fixes spread over three nodes fire what one center fires", arguments: [11, 12] as [UInt64])
    func locationAcrossNodesMatchesOneCenter(seed: UInt64) async throws {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let lake = Coordinate(latitude: 45.0, longitude: 14.0)
        let requests = try [("lake", 120.0, true), ("pond", 40, true), ("once", 80, false)].map { id, radius, repeats in
            NotificationRequest(identifier: id, content: NotificationContent(title: id),
                                trigger: .location(LocationTrigger(region: try Region.circle(center: lake, radius: radius),
                                                                   repeats: repeats)))
        }
        let single = try UserNotificationCenter(now: start)
        try await single.requestAuthorization(options: [.alert])
        _ = try await single.add(contentsOf: requests)

        let url = try TestPostgres.freshDatabase()
        let clock = ManualClock(now: start)
        var nodes: [ClusterCenter] = []
        for index in 0..<3 {
            nodes.append(ClusterCenter(store: try await TestPostgres.store(url),
                                       configuration: try ClusterConfiguration(node: "n\(index)"), clock: clock))
        }
        _ = try await nodes[0].add(contentsOf: requests)
        var random = SplitMix64(seed: seed)
        var expected: [String] = []
        for step in 1...80 {
            for device in ["a", "b"] {
                // A walk across the regions' edges: 0 to 200 m north of the centre.
                let metres = Double(Int.random(in: 0...200, using: &random))
                let fix = LocationFix(device: device, time: start.addingTimeInterval(Double(step * 10)),
                                      coordinate: Coordinate(latitude: 45.0 + metres / 111_195, longitude: 14.0))
                clock.advance(to: fix.time)
                expected += try await single.ingest(fix).compactMap { $0.regionEvent.map(Self.describe) }
                try await nodes[Int.random(in: 0..<3, using: &random)].ingest(fix)
            }
        }
        let fires = try await nodes[0].store.loadPendingEventFires()
        let found = fires.compactMap { $0.regionEvent.map(Self.describe) }
        #expect(found.sorted() == expected.sorted())
        #expect(expected.count > 10, "the walk crossed the edges")
        // The one-shot request fired once, then left the pending requests.
        #expect(try await nodes[1].pendingIdentifiers() == ["lake", "pond"])
        // A fix not after the device's previous one is refused, whichever node it reaches.
        await #expect(throws: CenterError.self) {
            try await nodes[2].ingest(LocationFix(device: "a", time: start, coordinate: lake))
        }
        for node in nodes { node.store.close() }
    }

    /// Counts the issues a node reports.
    actor Issues {
        var handOverFailures = 0
        var storeFailures = 0
        func add(_ issue: CenterIssue) {
            switch issue {
            case .handOverFailed: handOverFailures += 1
            case .storeFailed: storeFailures += 1
            default: break
            }
        }
    }

    @Test("a handler that throws gets the same fire again after the backoff, and it is finished once")
    func handlerFailureIsRetriedWithTheSameID() async throws {
        let url = try TestPostgres.freshDatabase()
        let store = try await TestPostgres.store(url)
        defer { store.close() }
        let node = ClusterCenter(store: store, configuration: try ClusterConfiguration(node: "n"))
        await node.setRetryPolicy(DeliveryRetryPolicy(initial: .milliseconds(200), maximum: .seconds(1)))
        let issues = Issues()
        await node.setIssueHandler { await issues.add($0) }
        try await node.setSettings(NotificationSettings(authorizationStatus: .authorized, options: [.alert]))
        try await node.add(NotificationRequest(identifier: "flaky", content: NotificationContent(title: "f"), trigger: nil))
        try await node.add(NotificationRequest(identifier: "fine", content: NotificationContent(title: "f"), trigger: nil))
        let collector = Collector()
        let failures = Mutex(0)
        let run = Task {
            try await node.run { delivery in
                if delivery.notification.request.identifier == "flaky", failures.withLock({ $0 += 1; return $0 }) <= 2 {
                    throw TestPostgresError("receiver down")
                }
                await collector.add(delivery, node: "n")
            }
        }
        await collector.wait(for: 2, atMost: .seconds(20))
        try await Task.sleep(for: .milliseconds(300))
        await node.stop()
        try await run.value
        let ids = await collector.ids
        // Two failed hand-overs, then one delivery of each fire; nothing left pending, one delivered row each.
        #expect(ids.count == 2 && Set(ids.map { $0.rawValue.hasSuffix("~flaky") }) == [true, false])
        #expect(await issues.handOverFailures == 2)
        #expect(try await store.outstandingCount() == 0)
        #expect(try await store.loadDeliveredNotifications().map(\.request.identifier).sorted() == ["fine", "flaky"])
    }

    @Test("a store that fails under a running node loses nothing: the fires wait and are delivered once it is back")
    func storeFailureWhileRunning() async throws {
        let url = try TestPostgres.freshDatabase()
        let store = try await TestPostgres.store(url)
        defer { store.close() }
        let node = ClusterCenter(store: store, configuration: try ClusterConfiguration(node: "n", pollInterval: .milliseconds(100)))
        await node.setRetryPolicy(DeliveryRetryPolicy(initial: .milliseconds(100), maximum: .milliseconds(400)))
        let issues = Issues()
        await node.setIssueHandler { await issues.add($0) }
        try await node.setSettings(NotificationSettings(authorizationStatus: .authorized, options: [.alert]))
        let collector = Collector()
        let run = Task { try await node.run { delivery in await collector.add(delivery, node: "n") } }
        // The pending table goes away under the running node (its claims fail), with 20 acknowledged adds in it.
        _ = try await node.add(contentsOf: (0..<20).map {
            NotificationRequest(identifier: "r\($0)", content: NotificationContent(title: "r"),
                                trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: 0.5, repeats: false)))
        })
        try await store.run("ALTER TABLE te_pending RENAME TO te_pending_away")
        try await Task.sleep(for: .seconds(1.5))
        #expect(await collector.ids.isEmpty)
        #expect(await issues.storeFailures > 0)
        try await store.run("ALTER TABLE te_pending_away RENAME TO te_pending")
        await collector.wait(for: 20, atMost: .seconds(20))
        try await Task.sleep(for: .milliseconds(200))
        await node.stop()
        try await run.value
        #expect(await collector.ids.count == 20)
        #expect(Set(await collector.ids).count == 20)
        #expect(try await store.outstandingCount() == 0)
    }

    @Test("a server that does not answer is a clear error within the connect timeout, not a hang")
    func unreachableServerIsAnError() async throws {
        let began = ContinuousClock.now
        let error = await #expect(throws: InputFileError.self) {
            _ = try await PostgresStore(url: PostgresURL("postgres://nobody@127.0.0.1:1/none"), connectTimeout: .seconds(1))
        }
        #expect(ContinuousClock.now - began < .seconds(5))
        #expect("\(error.map { "\($0)" } ?? "")".contains("127.0.0.1:1"))
    }

    static func describe(_ event: RegionEvent) -> String {
        "\(event.time.timeIntervalSince1970) \(event.device) \(event.region) \(event.kind)"
    }
}
#endif
