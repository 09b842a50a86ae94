#if PostgreSQL
import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine
@testable import trigger_eval
#if canImport(Glibc)
import Glibc
#endif

/// `trigger-eval run --store postgres://…`: several processes share one database.
@Suite("trigger-eval run: a cluster on PostgreSQL")
struct ClusterRunTests {
    /// Three nodes take a mixed workload (fires at once, one-shot intervals,
    /// a repeating RRULE, pushes) sent to all three; one is killed with
    /// SIGKILL in the middle and started again. Every fire is delivered, and a
    /// fire is written twice only when the killed node had written it.
    @Test func threeNodesDeliverEveryFireOnceWhileOneIsKilledAndRestarted() throws {
        let url = try TestPostgres.freshDatabase().description
        var random = SplitMix64(seed: 16)
        // The series start a few seconds ahead; an add that reaches its node late (a loaded machine) misses
        // the instants already past, and fires the rest: checked below as a suffix of the three.
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 6).rounded(.down))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        var commands: [String] = []
        var expectedFires: [String: Int] = [:]
        /// Each series' three instants, in milliseconds (as delivery IDs begin).
        var seriesInstants: [String: [Int64]] = [:]
        for index in 0..<60 {
            commands.append(#"{"add":{"identifier":"now\#(index)","content":{"title":"now"}}}"#)
            expectedFires["now\(index)"] = 1
        }
        for index in 0..<150 {
            let seconds = Double(random.next() % 5_500) / 1_000 + 0.5
            commands.append(#"{"add":{"identifier":"soon\#(index)","content":{"title":"soon"},"trigger":{"timeInterval":{"interval":\#(seconds)}}}}"#)
            expectedFires["soon\(index)"] = 1
        }
        for index in 0..<30 {
            let dtstart = formatter.string(from: start.addingTimeInterval(Double(index % 3)))
            commands.append(#"{"add":{"identifier":"series\#(index)","content":{"title":"series"},"trigger":{"recurrence":{"rrule":"FREQ=SECONDLY;INTERVAL=2;COUNT=3","dtstart":"\#(dtstart)","tz":"UTC"}}}}"#)
            let first = Int64(start.timeIntervalSince1970) + Int64(index % 3)
            seriesInstants["series\(index)"] = [first, first + 2, first + 4].map { $0 * 1_000 }
        }
        for index in 0..<10 {
            commands.append(#"{"push":{"payload":{"aps":{"alert":{"title":"pushed"}}},"identifier":"push\#(index)"}}"#)
            expectedFires["push\(index)"] = 1
        }
        // Mixed: each node gets every kind.
        commands = commands.enumerated().sorted { ($0.offset * 7_919) % 251 < ($1.offset * 7_919) % 251 }.map(\.element)
        let arguments = ["run", "--store", url, "--lease", "2"]
        let nodes = try (0..<3).map { _ in try LiveProcess(arguments) }
        for (index, node) in nodes.enumerated() {
            node.send(commands.enumerated().filter { $0.offset % 3 == index }.map(\.element))
        }
        // Location: three requests added through the first node; once they are acknowledged, each of two
        // devices walks in and out of the circles, one device's fixes through the first node, the other's
        // through the third (a device's fixes through one node, so that they arrive in order).
        let base = Date().addingTimeInterval(-30)
        nodes[0].send((0..<3).map { index in
            #"{"add":{"identifier":"lake\#(index)","content":{"title":"lake"},"trigger":{"location":{"region":{"center":{"lat":45.0,"lon":14.0},"radius":\#(100 + 50 * index)},"notifyOnEntry":true,"notifyOnExit":true,"repeats":true}}}}"#
        })
        #expect(nodes[0].wait(seconds: 20) { $0.contains { $0.contains(#""identifier":"lake2""#) } })
        for (node, device) in [(nodes[0], "phone-a"), (nodes[2], "phone-b")] {
            node.send([(1, 45.01), (2, 45.0), (3, 45.01)].map { second, latitude in
                let time = RFC3339.string(from: base.addingTimeInterval(Double(second)))
                return #"{"fix":{"device":"\#(device)","time":"\#(time)","lat":\#(latitude),"lon":14.0}}"#
            })
        }
        for index in 0..<3 { expectedFires["lake\(index)"] = 4 }
        // Kill the second node once it has delivered something, mid-stream.
        _ = nodes[1].wait(seconds: 20) { lines in lines.filter { $0.hasPrefix("{\"delivery\"") }.count >= 20 }
        nodes[1].signal(SIGKILL)
        #expect(try nodes[1].exitStatus() == nil, "the node was killed, not ended")
        Thread.sleep(forTimeInterval: 0.5)
        let restarted = try LiveProcess(arguments)
        let survivors = [nodes[0], nodes[2], restarted]
        let everyNode = nodes + [restarted]
        /// Delivery IDs per identifier.
        let delivered = { () -> [String: Set<String>] in
            var result: [String: Set<String>] = [:]
            for line in everyNode.flatMap({ Self.deliveries($0.output) }) { result[line.identifier, default: []].insert(line.id) }
            return result
        }
        /// A clock fire's due instant in milliseconds: what its delivery ID begins with.
        let instant = { (id: String) -> Int64 in Int64(id.split(separator: "~")[0]) ?? -1 }
        /// Whether every acknowledged request got its fires (a series: its last instant).
        let complete = { () -> Bool in
            let seen = delivered()
            return Set(everyNode.flatMap(\.output).compactMap(Self.acknowledgedIdentifier)).allSatisfy { identifier in
                if let instants = seriesInstants[identifier] {
                    return seen[identifier]?.contains { instant($0) == instants[2] } == true
                }
                return (seen[identifier]?.count ?? 0) >= (expectedFires[identifier] ?? 1)
            }
        }
        let deadline = Date().addingTimeInterval(60)
        while !complete(), Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        // A little longer: a duplicate would come now.
        Thread.sleep(forTimeInterval: 0.5)
        for node in survivors { node.signal(SIGTERM) }
        for node in survivors { #expect(try node.exitStatus() == 0, "\(node.standardError)") }

        // Every command was acknowledged, by the node it was sent to (the killed node's aside).
        let acknowledged = (nodes + [restarted]).flatMap(\.output).filter { $0.hasPrefix("{\"ok\"") }.count
        #expect(acknowledged >= commands.count - commands.count / 3 + 3 + 6)
        #expect(!(nodes + [restarted]).flatMap(\.output).contains { $0.hasPrefix("{\"error\"") })
        let killedLines = Self.deliveries(nodes[1].output)
        let killed = Set(killedLines.map(\.id))
        let survivorLines = survivors.flatMap { Self.deliveries($0.output) }
        let all = killedLines + survivorLines
        // Every fire of every acknowledged request was delivered: each request as often as it fires.
        let firesByIdentifier = Dictionary(grouping: Set(all.map { "\($0.id) \($0.identifier)" }),
                                           by: { String($0.split(separator: " ")[1]) }).mapValues(\.count)
        let acknowledgedIdentifiers = Set((nodes + [restarted]).flatMap(\.output).compactMap(Self.acknowledgedIdentifier))
        let instantsByIdentifier = delivered()
        for identifier in acknowledgedIdentifiers {
            if let instants = seriesInstants[identifier] {
                // The instants after its add: a non-empty suffix of the three, none skipped.
                let got = Set((instantsByIdentifier[identifier] ?? []).map(instant))
                #expect(!got.isEmpty && got == Set(instants.suffix(got.count)), "\(identifier): \(got.sorted()) of \(instants)")
            } else {
                #expect(firesByIdentifier[identifier] == expectedFires[identifier], "\(identifier)")
            }
        }
        #expect(firesByIdentifier.count >= acknowledgedIdentifiers.count)
        // The nodes that lived delivered no fire twice …
        #expect(Set(survivorLines.map(\.id)).count == survivorLines.count)
        // … and a fire written twice had been written by the killed node, in flight when it died.
        let repeated = Set(survivorLines.map(\.id)).intersection(killed)
        #expect(repeated.count <= 64, "at most one claimed batch was in flight: \(repeated.count)")
        #expect(killedLines.count >= 20)
    }

    static func deliveries(_ lines: [String]) -> [(id: String, identifier: String)] {
        lines.compactMap { line in
            guard line.hasPrefix("{\"delivery\""),
                  let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                  let id = object["delivery"] as? String, let identifier = object["identifier"] as? String else { return nil }
            return (id, identifier)
        }
    }

    static func acknowledgedIdentifier(_ line: String) -> String? {
        guard line.hasPrefix("{\"ok\""),
              let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else { return nil }
        return object["identifier"] as? String
    }
}

#endif
