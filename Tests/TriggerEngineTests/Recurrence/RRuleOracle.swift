import Foundation
import TestSupport

/// python-dateutil's `rrule`, run as `scripts/rrule-oracle.py`: one process for
/// a whole batch of cases, JSON in on stdin, JSON out on stdout.
enum RRuleOracle {
    struct Case: Encodable {
        var rule: String
        var dtstart: String
        var limit: Int
        var cap: String
    }

    enum Outcome {
        /// Each case's instances, or dateutil's error for it; and dateutil's version.
        case answers([Answer], version: String)
        /// python3 or python-dateutil is not installed: why.
        case unavailable(String)
    }

    /// What dateutil answered for one case.
    enum Answer {
        /// The instances up to the limit or the cap.
        case instances([String])
        /// dateutil ran out of the oracle's time per case looking for the next
        /// instance after these (it walks a rule that never matches again to year 9999).
        case partial([String])
        /// dateutil refused the rule.
        case error(String)
    }

    struct OracleError: Error, CustomStringConvertible {
        var description: String
    }

    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/rrule-oracle.py")

    /// Runs the oracle once on all `cases`.
    static func run(_ cases: [Case]) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        let batch = try JSONEncoder().encode(["cases": cases])
        // RRULE_ORACLE_BATCH=path keeps a copy of the batch, to rerun the oracle by hand.
        if let path = ProcessInfo.processInfo.environment["RRULE_ORACLE_BATCH"] {
            try batch.write(to: URL(fileURLWithPath: path))
        }
        let finished: FinishedProcess
        do { finished = try process.runToEnd(input: batch) } catch let error as ChildProcessDeadline {
            throw OracleError(description: "\(error)")
        } catch {
            return .unavailable("cannot start python3: \(error)")
        }
        let data = finished.standardOutput
        let message = finished.errors
        // 127: env found no python3; 3: the oracle found no dateutil.
        if process.terminationStatus == 127 || process.terminationStatus == 3 {
            return .unavailable(message.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard process.terminationStatus == 0,
              let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let results = object["results"] as? [Any], results.count == cases.count else {
            throw OracleError(description: "rrule-oracle.py failed (status \(process.terminationStatus)): \(message)")
        }
        let answers = results.map { result -> Answer in
            if let instances = result as? [String] { return .instances(instances) }
            if let partial = (result as? [String: Any])?["partial"] as? [String] { return .partial(partial) }
            return .error((result as? [String: Any])?["error"] as? String ?? "unreadable answer")
        }
        return .answers(answers, version: object["dateutil"] as? String ?? "?")
    }
}

extension RRuleOracle.Answer {
    var isPartial: Bool {
        if case .partial = self { return true }
        return false
    }
}
