import Foundation
import Testing
import TestSupport
@testable import trigger_eval
#if canImport(Glibc)
import Glibc
#endif

/// `trigger-eval run`: the center live on the wall clock, as `shared/spec/cli.md` says.
@Suite("trigger-eval run")
struct RunCommandTests {
    static func object(_ line: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    static func replies(_ lines: [String]) -> [String] { lines.filter { !$0.hasPrefix("{\"delivery\"") } }
    static func deliveries(_ lines: [String]) -> [[String: Any]] {
        lines.filter { $0.hasPrefix("{\"delivery\"") }.compactMap(object)
    }

    static func add(_ id: String, after seconds: Double? = nil, title: String? = nil) -> String {
        let trigger = seconds.map { #","trigger":{"timeInterval":{"interval":\#($0)}}"# } ?? ""
        return #"{"add":{"identifier":"\#(id)","content":{"title":"\#(title ?? id)"}\#(trigger)}}"#
    }

    @Test func everyCommandGetsOneReplyInOrderAndDeliveriesComeOnTheWallClock() throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("center.sqlite").path
        let started = Date()
        let run = try LiveProcess(["run", "--store", store, "--exit-when-idle"])
        run.send([
            Self.add("soon", after: 0.4),
            "not json",
            Self.add("now"),
            #"{"remove":["nothing-by-that-name"]}"#,
            #"{"add":{"identifier":"","content":{}}}"#,
            #"{"category":{"identifier":"CHAT","actions":[{"identifier":"REPLY","title":"Reply"}]}}"#,
            #"{"push":{"payload":{"aps":{"alert":{"title":"Pushed"}}},"identifier":"p1"}}"#,
            #"{"pending":true}"#,
            #"{"frobnicate":1}"#,
        ])
        #expect(run.wait { Self.replies($0).count == 9 })
        run.closeInput()
        #expect(try run.exitStatus() == 0, "\(run.standardError)")
        let lines = run.output
        let replies = Self.replies(lines)
        #expect(replies[0] == #"{"ok":"add","identifier":"soon"}"#)
        #expect(replies[1] == #"{"error":"line 2: not valid JSON"}"#)
        #expect(replies[2] == #"{"ok":"add","identifier":"now"}"#)
        #expect(replies[3] == #"{"ok":"remove"}"#)
        #expect(replies[4].hasPrefix(#"{"error":"line 5: "#) && replies[4].contains("identifier must not be empty"))
        #expect(replies[5] == #"{"ok":"category","identifier":"CHAT"}"#)
        #expect(replies[6] == #"{"ok":"push","identifier":"p1"}"#)
        #expect(replies[7].hasPrefix(#"{"pending":["#) && replies[7].contains("\"soon\""))
        #expect(replies[8].hasPrefix(#"{"error":"line 9: a command is an object with one of the keys"#))
        let deliveries = Self.deliveries(lines)
        #expect(deliveries.map { $0["identifier"] as? String }.sorted { ($0 ?? "") < ($1 ?? "") } == ["now", "p1", "soon"])
        #expect(Set(deliveries.compactMap { $0["delivery"] as? String }).count == 3)
        let soon = try #require(deliveries.first { $0["identifier"] as? String == "soon" })
        #expect(soon["trigger"] as? String == "timeInterval" && soon["title"] as? String == "soon")
        // Due 0.4 s after its add, which came after the process started.
        let due = try #require((soon["time"] as? String).flatMap(RFC3339Reader.date))
        #expect(due > started.addingTimeInterval(0.4) && due < Date())
        // The replies come in command order; everything is recorded in the store.
        let dump = try CLIRunner.run(["--store", store, "--dump"], program: CLIRunner.crashTestChild)
        #expect(dump.stdout.split(separator: "\n").filter { $0.hasPrefix("delivered ") }.count == 3)
        #expect(!dump.stdout.contains("pending "))
    }

    /// `--exit-when-idle` waiting for a request an hour away, stdin closed:
    /// SIGTERM still ends the run at once, cleanly, with the store closed.
    @Test func sigtermEndsARunWaitingToFallIdle() throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("center.sqlite").path
        let run = try LiveProcess(["run", "--store", store, "--exit-when-idle"])
        run.send([Self.add("later", after: 3_600)])
        #expect(run.wait { Self.replies($0).count == 1 })
        run.closeInput()
        run.signal(SIGTERM)
        #expect(try run.exitStatus() == 0, "\(run.standardError)")
        // Closed cleanly: no WAL left beside the file, and the request is kept.
        #expect(!FileManager.default.fileExists(atPath: store + "-wal"))
        let dump = try CLIRunner.run(["--store", store, "--dump"], program: CLIRunner.crashTestChild)
        #expect(dump.stdout.contains("pending later"))
    }

    @Test func sigtermEndsTheRunCleanlyAndARestartKeepsWhatWasAcknowledged() throws {
        // The first process must stop before "later" falls due. On a loaded
        // machine (CI runs every suite at once on two cores) 1 s was once not
        // enough: the first run delivered it before SIGTERM landed. That is
        // right behaviour but tests nothing here, so the scenario is tried
        // again with a longer interval, on a fresh store.
        for interval in [1.0, 3.0, 9.0] {
            if try restartKeepsWhatWasAcknowledged(interval: interval) { return }
        }
        Issue.record("the first run delivered the request before SIGTERM even with a 9 s interval")
    }

    /// One try of the SIGTERM-and-restart scenario; false when the first run
    /// delivered "later" before it stopped (the try proves nothing).
    private func restartKeepsWhatWasAcknowledged(interval: Double) throws -> Bool {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("center.sqlite").path
        let first = try LiveProcess(["run", "--store", store])
        let added = Date()
        first.send([Self.add("later", after: interval), Self.add("much-later", after: 3_600)])
        #expect(first.wait { Self.replies($0).count == 2 })
        first.signal(SIGTERM)
        #expect(try first.exitStatus() == 0, "\(first.standardError)")
        if !Self.deliveries(first.output).isEmpty { return false }
        // Restarted after "later" fell due: it fires at once (fire once now), with the instant it was due.
        Thread.sleep(until: added.addingTimeInterval(interval + 0.1))
        let second = try LiveProcess(["run", "--store", store])
        #expect(second.wait { Self.deliveries($0).count == 1 })
        // The delivery is recorded right after its line: ask until "later" has left.
        var asked = 0
        repeat {
            asked += 1
            second.send([#"{"pending":true}"#])
            second.wait { Self.replies($0).count == asked }
        } while Self.replies(second.output).last != #"{"pending":["much-later"]}"# && asked < 100
        second.signal(SIGINT)
        #expect(try second.exitStatus() == 0)
        #expect(Self.deliveries(second.output).first?["identifier"] as? String == "later")
        #expect(Self.replies(second.output).last == #"{"pending":["much-later"]}"#)
        return true
    }

    /// Issue 12: the kill -9 test, on the wall clock through `trigger-eval run`.
    /// A workload of one-shot requests due within a few seconds is sent; the
    /// process is killed at random instants and restarted on the same store,
    /// and the test re-sends only adds that were neither acknowledged nor
    /// delivered. Nothing acknowledged may be lost, every request is delivered,
    /// and a fire is written twice (with the same ID) only when it was in
    /// flight at a kill: at most once per kill.
    @Test func killedRunLosesNoAcknowledgedAddAndRepeatsOnlyFiresInFlight() throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("center.sqlite").path
        var random = SplitMix64(seed: 12)
        let identifiers = (0..<150).map { "r\($0)" }
        let workload = Dictionary(uniqueKeysWithValues: identifiers.map { id -> (String, String) in
            let seconds = random.next() % 5 == 0 ? nil : Double(random.next() % 3_000) / 1_000 + 0.05
            return (id, Self.add(id, after: seconds))
        })
        var acknowledged = Set<String>()
        var deliveredLines: [(id: String, identifier: String)] = []
        var kills = 0
        var sent: [String: Int] = [:]
        for round in 0..<12 {
            let delivered = Set(deliveredLines.map(\.identifier))
            let toSend = identifiers.filter { !acknowledged.contains($0) && !delivered.contains($0) }
            for identifier in toSend { sent[identifier, default: 0] += 1 }
            let last = round == 11
            let run = try LiveProcess(["run", "--store", store] + (last ? ["--exit-when-idle"] : []))
            run.send(toSend.map { workload[$0]! })
            if last {
                run.closeInput()
                #expect(try run.exitStatus() == 0, "\(run.standardError)")
            } else {
                Thread.sleep(forTimeInterval: Double(random.next() % 700) / 1_000 + 0.05)
                run.signal(SIGKILL)
                if try run.exitStatus() == nil { kills += 1 }
            }
            for line in run.output {
                guard let object = Self.object(line) else {
                    // A kill may cut the last line short: only whole lines count.
                    continue
                }
                if object["ok"] as? String == "add", let id = object["identifier"] as? String { acknowledged.insert(id) }
                if let id = object["delivery"] as? String, let identifier = object["identifier"] as? String {
                    deliveredLines.append((id, identifier))
                }
            }
        }
        #expect(kills >= 8)
        let byIdentifier = Dictionary(grouping: deliveredLines, by: \.identifier)
        // Nothing acknowledged was lost, and in the end everything was delivered.
        #expect(acknowledged.subtracting(byIdentifier.keys).isEmpty)
        #expect(Set(byIdentifier.keys) == Set(identifiers))
        // A one-shot request sent once has one fire: all its lines carry one ID.
        // (One sent again, its first add committed but not acknowledged before a
        // kill, may rightly fire twice: the restart delivers the first, the
        // re-sent add is a new request.)
        #expect(byIdentifier.filter { sent[$0.key] == 1 }.values.allSatisfy { Set($0.map(\.id)).count == 1 })
        #expect(byIdentifier.allSatisfy { Set($0.value.map(\.id)).count <= sent[$0.key]! })
        // ... and a fire is repeated only when a kill caught it in flight.
        let repeats = deliveredLines.count - Set(deliveredLines.map(\.id)).count
        #expect(repeats <= kills, "\(repeats) repeated lines for \(kills) kills")
        let dump = try CLIRunner.run(["--store", store, "--dump"], program: CLIRunner.crashTestChild)
        #expect(!dump.stdout.contains("pending "))
        #expect(Set(dump.stdout.split(separator: "\n").filter { $0.hasPrefix("delivered ") }
            .map { String($0.split(separator: " ")[1]) }) == Set(identifiers))
    }
}

/// RFC 3339 reading for the tests (the library's reader).
enum RFC3339Reader {
    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text)
    }
}
