import Foundation

/// Runs a benchmark's Python peer script (`Benchmarks/Peers/bench-*-peer.py`) and reads
/// the JSON object it prints. Shared by the benchmarks so that finding the
/// script, reporting a missing interpreter or module, and decoding stay in one place.
enum PythonPeer {
    /// The peer's JSON output, with a non-empty `seconds` array (or, with
    /// `requiring`, that key); nil (after printing why, under `label`) when the
    /// script, python3 or the Python package `module` is missing, or the script fails.
    static func run(script name: String, arguments: [String], label: String, module: String,
                    requiring key: String = "seconds") -> [String: Any]? {
        guard let script = locate(name, label: label) else { return nil }
        let tag = label.padding(toLength: 10, withPad: " ", startingAt: 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + arguments
        // stdout through a pipe, stderr into a file: with two pipes drained one
        // after the other, a peer that fills the stderr pipe would block for ever.
        let out = Pipe()
        let errorPath = FileManager.default.temporaryDirectory.appendingPathComponent("peer-\(getpid())-\(name).err").path
        defer { try? FileManager.default.removeItem(atPath: errorPath) }
        guard FileManager.default.createFile(atPath: errorPath, contents: nil),
              let errorFile = FileHandle(forWritingAtPath: errorPath) else {
            print("  \(tag)skipped: cannot create \(errorPath)")
            return nil
        }
        process.standardOutput = out
        process.standardError = errorFile
        do { try process.run() } catch {
            print("  \(tag)skipped: cannot run python3 (\(error))")
            return nil
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? errorFile.close()
        let errors = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0,
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              key != "seconds" ? object[key] != nil : !((object["seconds"] as? [Double]) ?? []).isEmpty else {
            let reason = errors.contains("No module named") ? "\(module) is not installed (scripts/bootstrap --bench)"
                                                            : errors.split(separator: "\n").last.map(String.init) ?? "failed"
            print("  \(tag)skipped: \(reason)")
            return nil
        }
        return object
    }

    /// The path of `Benchmarks/Peers/NAME`; nil (after printing why, under
    /// `label`) when it is not there.
    static func locate(_ name: String, label: String) -> String? {
        let script = Repository.path("Benchmarks/Peers/\(name)")
        guard FileManager.default.fileExists(atPath: script) else {
            print("  \(label.padding(toLength: 10, withPad: " ", startingAt: 0))skipped: \(script) not found")
            return nil
        }
        return script
    }
}
