import Foundation
import Testing
import TestSupport
@testable import trigger_eval
#if canImport(Glibc)
import Glibc
#endif

/// Issue 6: "a process killed at any instant (kill -9) loses no pending request
/// and delivers no one-shot request twice". The child (`crash-test-child`) adds seeded requests to a SQLite-backed center and runs its
/// virtual clock; this test kills it with SIGKILL after seeded random delays,
/// restarts it, and checks the store after every kill and at the end against a
/// run that was never killed.
@Suite("kill -9 recovery")
struct KillRecoveryTests {
    /// The store's content as `--dump` prints it.
    struct Dump: Equatable {
        var pending: [String] = []            // "identifier epoch", add order
        var delivered: [String] = []          // "identifier epoch", delivery order

        init(_ text: String) {
            for line in text.split(separator: "\n") {
                let fields = line.split(separator: " ", maxSplits: 1).map(String.init)
                if fields[0] == "pending" { pending.append(fields[1]) }
                if fields[0] == "delivered" { delivered.append(fields[1]) }
            }
        }

        var pendingIdentifiers: Set<String> { Set(pending.map { String($0.split(separator: " ")[0]) }) }
        var deliveredIdentifiers: [String] { delivered.map { String($0.split(separator: " ")[0]) } }
    }

    /// What a killed (or finished) child confirmed on stdout.
    struct ChildRun {
        var added: [Int] = []
        var delivered: [String] = []          // "identifier epoch"
        var done = false
        var killed = false
    }

    static let workload = ["--requests", "240", "--days", "45", "--seed", "11"]

    static func dump(_ store: String) throws -> Dump {
        let result = try CLIRunner.run(["--store", store, "--dump"] + workload, program: CLIRunner.crashTestChild)
        #expect(result.status == 0, "\(result.stderr)")
        return Dump(result.stdout)
    }

    /// When to kill the child.
    enum KillPoint {
        /// Never: let it finish.
        case none
        /// `seconds` after it started (start-up and reload included).
        case after(seconds: Double)
        /// As soon as the test has read its `line`-th confirmation (it is
        /// still running on: the kill lands a little later).
        case atLine(Int)
    }

    /// Starts the child, kills it with SIGKILL at `point` (unless it finished
    /// first), and returns what it confirmed.
    static func runChild(store: String, addFrom: Int, kill point: KillPoint) throws -> ChildRun {
        let process = Process()
        process.executableURL = CLIRunner.crashTestChild
        process.arguments = ["--store", store, "--add-from", String(addFrom)] + workload
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let pid = process.processIdentifier
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        DispatchQueue.global().async(group: group) {
            var lines = 0
            while case let chunk = out.fileHandleForReading.availableData, !chunk.isEmpty {
                outData.append(chunk)
                guard case .atLine(let target) = point, lines < target else { continue }
                lines += chunk.count { $0 == UInt8(ascii: "\n") }
                if lines >= target { kill(pid, SIGKILL) }
            }
        }
        DispatchQueue.global().async(group: group) { _ = err.fileHandleForReading.readDataToEndOfFile() }
        if case .after(let seconds) = point {
            Thread.sleep(forTimeInterval: seconds)
            kill(pid, SIGKILL)
        }
        try process.waitUntilExit(atMost: ChildProcessDeadline.defaultLimit)
        try group.wait(for: process, atMost: .seconds(60))
        var run = ChildRun()
        run.killed = process.terminationReason == .uncaughtSignal
        if !run.killed { #expect(process.terminationStatus == 0) }
        for line in String(decoding: outData, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 1).map(String.init)
            switch fields[0] {
            case "added": run.added.append(Int(fields[1])!)
            case "delivered": run.delivered.append(fields[1])
            case "done": run.done = true
            default: break
            }
        }
        return run
    }

    @Test func killedChildLosesNoPendingRequestAndDeliversNoOneShotTwice() throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        // The reference: the same workload, never killed.
        let referenceStore = directory.appendingPathComponent("reference.sqlite").path
        let started = Date()
        let reference = try Self.runChild(store: referenceStore, addFrom: 0, kill: .none)
        let fullRun = Date().timeIntervalSince(started)
        #expect(reference.done)
        #expect(reference.added == Array(0..<240))
        let expected = try Self.dump(referenceStore)
        #expect(expected.delivered.count > 1_000, "the workload should keep the child busy")
        #expect(expected.delivered == reference.delivered)

        let store = directory.appendingPathComponent("killed.sqlite").path
        var confirmedAdds = 0
        var confirmedDeliveries: [String] = []
        var kills = 0
        var random = SplitMix64(seed: 2026) // the CLI's seeded generator
        for round in 0..<40 {
            // Three rounds in four: after a random number of further confirmations
            // (adds, then deliveries), about 1/60 of the run on average, so the
            // kills spread over most of the run and leave room before its end
            // (every round a kill, whatever the seed); the child is a little
            // further on when the signal lands. Every fourth: after a random delay within
            // a tenth of a full run, which lands in start-up, reload and adds.
            let lines = 240 + expected.delivered.count
            let point: KillPoint = round % 4 == 3
                ? .after(seconds: Double(random.next() % 1_000) / 1_000 * fullRun / 10)
                : .atLine(1 + Int(random.next() % UInt64(2 * lines / 60)))
            let run = try Self.runChild(store: store, addFrom: confirmedAdds, kill: point)
            if run.killed { kills += 1 }
            #expect(run.added == Array(confirmedAdds..<(confirmedAdds + run.added.count)), "round \(round)")
            confirmedAdds += run.added.count
            confirmedDeliveries += run.delivered

            let state = try Self.dump(store)
            let pending = state.pendingIdentifiers
            let deliveredIdentifiers = state.deliveredIdentifiers
            let delivered = Set(deliveredIdentifiers)
            // No one-shot request was delivered twice, nor is it both delivered and pending.
            let oneShots = deliveredIdentifiers.filter { $0.hasPrefix("once-") }
            #expect(oneShots.count == Set(oneShots).count, "round \(round): a one-shot request delivered twice")
            #expect(pending.filter { $0.hasPrefix("once-") && delivered.contains($0) }.isEmpty, "round \(round)")
            // Every confirmed add is still pending, or was delivered (one-shot).
            let lost = expected.pendingIdentifiers.union(Set(expected.deliveredIdentifiers))
                .filter { Int($0.split(separator: "-")[1])! < confirmedAdds }
                .filter { !pending.contains($0) && !($0.hasPrefix("once-") && delivered.contains($0)) }
            #expect(lost.isEmpty, "round \(round): lost \(lost.sorted())")
            // Every delivery the child confirmed is in the store, in the same order.
            #expect(state.delivered.count >= confirmedDeliveries.count, "round \(round)")
            #expect(Array(state.delivered.prefix(confirmedDeliveries.count)) == confirmedDeliveries, "round \(round)")
            // Whatever was delivered so far is exactly the reference's beginning.
            #expect(Array(expected.delivered.prefix(state.delivered.count)) == state.delivered, "round \(round)")
            confirmedDeliveries = state.delivered
        }
        // Most rounds end in a kill; on a loaded machine a few of the timed
        // kills land after the child has finished (28 of 40 seen with a
        // benchmark on the other core), which leaves the checks above fewer
        // kills to judge but does not make them wrong.
        #expect(kills >= 24, "most rounds should end in a kill, not a finished run (\(kills) of 40 did)")

        // Finish without a kill: the end state is the reference's.
        let last = try Self.runChild(store: store, addFrom: confirmedAdds, kill: .none)
        #expect(last.done)
        let final = try Self.dump(store)
        #expect(final.delivered == expected.delivered)
        #expect(final.pending == expected.pending)
    }
}
