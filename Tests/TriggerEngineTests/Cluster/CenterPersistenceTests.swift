#if PostgreSQL
import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine
@testable import TriggerEngineCluster

/// One behavioural suite for both stores: the same seeded random sequences of
/// changes go to SQLite (the embedded store) and to PostgreSQL (the cluster's),
/// and each reads back the same state after every transaction.
@Suite("Center persistence: SQLite and PostgreSQL behave alike", .serialized)
struct CenterPersistenceTests {
    /// What a store reads back, in comparable form.
    struct Snapshot: Equatable {
        var pending: [String]
        var delivered: [String]
        var categories: [NotificationCategory]
        var settings: [String: NotificationSettings]
        var tokens: [String: Set<String>]
        var eventFires: [String]

        init(_ store: some CenterPersistence) async throws {
            pending = try await store.loadPendingRecords().map {
                "\($0.request.identifier) for \($0.recipient) at \($0.nextFire.map { "\($0.timeIntervalSince1970)" } ?? "event"): \($0.request.content.title)"
            }
            delivered = try await store.loadDeliveredNotifications().map {
                "\($0.request.identifier) for \($0.recipient) at \($0.date.timeIntervalSince1970)"
            }
            categories = try await store.loadNotificationCategories()
            settings = try await store.loadNotificationSettings()
            tokens = try await store.loadTokens()
            eventFires = try await store.loadPendingEventFires().map { "\($0.id) \($0.request.identifier)" }
        }
    }

    @Test("random change sequences read back the same from both stores", arguments: [1, 2, 3] as [UInt64])
    func randomSequences(seed: UInt64) async throws {
        let postgres = try await TestPostgres.store(TestPostgres.freshDatabase())
        defer { postgres.close() }
        let sqlite = try NotificationStore(path: nil)
        var random = SplitMix64(seed: seed)
        var model = Model()
        for step in 0..<60 {
            let changes = (0..<Int.random(in: 1...4, using: &random)).map { _ in model.change(using: &random) }
            let sqliteFailed = await (try? sqlite.write(changes)) == nil
            let postgresFailed = await (try? postgres.write(changes)) == nil
            #expect(sqliteFailed == postgresFailed, "step \(step): one store refused what the other kept: \(changes)")
            let expected = try await Snapshot(sqlite)
            let found = try await Snapshot(postgres)
            #expect(found == expected, "seed \(seed), step \(step), after \(changes)")
            if found != expected { return }
        }
        // The sequences did reach every kind of state.
        #expect(try await !Snapshot(sqlite).pending.isEmpty || model.removedAll)
    }

    @Test("a fire finishes only the row of that very request and due instant")
    func firedPendingMatchesItsRow() async throws {
        let postgres = try await TestPostgres.store(TestPostgres.freshDatabase())
        defer { postgres.close() }
        let sqlite = try NotificationStore(path: nil)
        let added = Date(timeIntervalSince1970: 1_800_000_000)
        let request = NotificationRequest(identifier: "r", content: NotificationContent(title: "R"),
                                          trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: 60, repeats: true)),
                                          added: added)
        let due = added.addingTimeInterval(60)
        for store in [sqlite, postgres] as [any CenterPersistence] {
            try await store.write([.savePending([.init(request: request, nextFire: due)])])
            // Another due instant (a replaced request's old fire): nothing moves.
            try await store.write([.firedPending(identifier: "r", added: added, due: due.addingTimeInterval(-60),
                                                 nextFire: due.addingTimeInterval(600))])
            #expect(try await store.loadPendingRecords().map(\.nextFire) == [due])
            // Another add instant (the request was replaced meanwhile): nothing moves.
            try await store.write([.firedPending(identifier: "r", added: added.addingTimeInterval(1), due: due,
                                                 nextFire: due.addingTimeInterval(600))])
            #expect(try await store.loadPendingRecords().map(\.nextFire) == [due])
            try await store.write([.firedPending(identifier: "r", added: added, due: due, nextFire: due.addingTimeInterval(60))])
            #expect(try await store.loadPendingRecords().map(\.nextFire) == [due.addingTimeInterval(60)])
            try await store.write([.firedPending(identifier: "r", added: added, due: due.addingTimeInterval(60), nextFire: nil)])
            #expect(try await store.loadPendingRecords().isEmpty)
        }
    }

    @Test("a change the store cannot keep fails the whole transaction in both")
    func refusedKeyWritesNothing() async throws {
        let postgres = try await TestPostgres.store(TestPostgres.freshDatabase())
        defer { postgres.close() }
        let sqlite = try NotificationStore(path: nil)
        let good = NotificationRequest(identifier: "good", content: NotificationContent(title: "G"), trigger: nil)
        let bad = NotificationRequest(identifier: "bad\u{0}", content: NotificationContent(title: "B"), trigger: nil)
        for store in [sqlite, postgres] as [any CenterPersistence] {
            await #expect(throws: DataError.self) {
                try await store.write([.savePending([.init(request: good, nextFire: Date(timeIntervalSince1970: 1))]),
                                       .savePending([.init(request: bad, nextFire: nil)])])
            }
            #expect(try await store.loadPendingRecords().isEmpty)
        }
    }

    /// Draws changes, remembering identifiers so that removes and fires hit rows that exist.
    struct Model {
        var identifiers: [String] = []
        var fires: [String: (added: Date, due: Date)] = [:]
        var removedAll = false
        var eventFireIDs: [DeliveryID] = []

        mutating func change(using random: inout SplitMix64) -> StoreChange {
            let base = 1_800_000_000.0
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<35:
                let count = Int.random(in: 1...3, using: &random)
                var records: [ScheduledRequest] = []
                for _ in 0..<count {
                    let identifier = "r\(Int.random(in: 0..<12, using: &random))"
                    let added = Date(timeIntervalSince1970: base + Double(Int.random(in: 0..<1_000, using: &random)))
                    let due = added.addingTimeInterval(Double(Int.random(in: 60...600, using: &random)))
                    let onEvent = Bool.random(using: &random) && Bool.random(using: &random)
                    let trigger: NotificationTrigger = onEvent ? .push
                        : .timeInterval(try! TimeIntervalTrigger(timeInterval: 60, repeats: Bool.random(using: &random)))
                    let request = NotificationRequest(identifier: identifier,
                                                      content: NotificationContent(title: "t\(Int.random(in: 0..<100, using: &random))"),
                                                      trigger: trigger, added: added)
                    records.append(.init(request: request, recipient: Bool.random(using: &random) ? "" : "u1",
                                         nextFire: onEvent ? nil : due))
                    identifiers.append(identifier)
                    fires[identifier] = onEvent ? nil : (added, due)
                }
                return .savePending(records)
            case 35..<45:
                return .removePending((0..<2).map { _ in identifiers.randomElement(using: &random) ?? "r0" })
            case 45..<47:
                removedAll = true
                return .removeAllPending
            case 47..<62:
                guard let identifier = fires.keys.sorted().randomElement(using: &random), let fire = fires[identifier] else {
                    return .removeDelivered(nil)
                }
                let next = Bool.random(using: &random) ? fire.due.addingTimeInterval(60) : nil
                // Now and then a stale fire (its due moved on), which must change nothing.
                let due = Int.random(in: 0..<4, using: &random) == 0 ? fire.due.addingTimeInterval(-1) : fire.due
                if due == fire.due { fires[identifier] = next.map { (fire.added, $0) } }
                return .firedPending(identifier: identifier, added: fire.added, due: due, nextFire: next)
            case 62..<72:
                let identifier = identifiers.randomElement(using: &random) ?? "r0"
                return .insertDelivered(DeliveredNotification(
                    request: NotificationRequest(identifier: identifier, content: NotificationContent(title: "d"), trigger: nil),
                    date: Date(timeIntervalSince1970: base + Double(Int.random(in: 0..<10_000, using: &random))),
                    recipient: "u\(Int.random(in: 0..<2, using: &random))"))
            case 72..<76:
                return .removeDelivered(Bool.random(using: &random) ? nil : [identifiers.randomElement(using: &random) ?? "r0"])
            case 76..<82:
                let count = Int.random(in: 0...2, using: &random)
                return .saveCategories((0..<count).map { index in
                    NotificationCategory(identifier: "c\(index)",
                                         actions: [NotificationAction(identifier: "a\(Int.random(in: 0..<3, using: &random))",
                                                                      title: "A")])
                })
            case 82..<87:
                let status = AuthorizationStatus.allCases.randomElement(using: &random)!
                return .saveSettings(NotificationSettings(authorizationStatus: status,
                                                          options: AuthorizationOptions(rawValue: Int.random(in: 0..<64, using: &random))),
                                     recipient: "u\(Int.random(in: 0..<3, using: &random))")
            case 87..<91:
                let tokens = Set((0..<Int.random(in: 0...3, using: &random)).map { _ in
                    String(format: "%08x", UInt32.random(in: 0...UInt32.max, using: &random))
                })
                return .saveDeviceTokens(tokens, recipient: "u\(Int.random(in: 0..<2, using: &random))")
            case 91..<96:
                let identifier = identifiers.randomElement(using: &random) ?? "r0"
                let date = Date(timeIntervalSince1970: base + Double(Int.random(in: 0..<10_000, using: &random)))
                let request = NotificationRequest(identifier: identifier, content: NotificationContent(title: "e"),
                                                  trigger: .push, added: date)
                let fire = EventFire(id: .push(identifier: identifier, at: date), request: request, recipient: "",
                                     due: date, regionEvent: nil)
                eventFireIDs.append(fire.id)
                return .insertEventFire(fire)
            case 96..<98:
                return .deleteEventFire(eventFireIDs.randomElement(using: &random) ?? DeliveryID(rawValue: "none"))
            default:
                return .dropEventFires([identifiers.randomElement(using: &random) ?? "r0"])
            }
        }
    }
}
#endif
