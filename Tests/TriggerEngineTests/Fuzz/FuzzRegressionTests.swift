import Foundation
import Testing
@_spi(Internals) @testable import TriggerEngine

/// Every input a fuzz target ever found (`Fixtures/fuzz-regressions/<target>/`,
/// saved there by `scripts/fuzz`), and every seed it starts from
/// (`Fuzz/Corpus/<format>/`), goes through the same entry point libFuzzer ran
/// (`Fuzz/Sources/FuzzEntries`, linked into this target as `FuzzEntries`): it
/// must give a result or a clean error — one the command line reports as bad
/// input or an unreadable file — and no violated property. A trap ends this
/// test process, which fails the suite as surely.
///
/// `fuzz-regressions/open.txt` lists inputs whose fix belongs to another area
/// and has not landed yet: they are not run (a trap or a hang would take the
/// suite with it) but reported as known issues, until their line is removed.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static var regressions: URL {
        Bundle.module.url(forResource: "fuzz-regressions", withExtension: nil, subdirectory: "Fixtures")!
    }

    /// `Fuzz/Corpus`, found from this file (the seeds are not test resources).
    static var seeds: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus")
    }

    /// `target/file` → why it is still open.
    static let open: [String: String] = {
        guard let text = try? String(contentsOf: regressions.appendingPathComponent("open.txt"), encoding: .utf8) else { return [:] }
        var entries: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            if parts.count == 2 { entries[String(parts[0])] = String(parts[1]) }
        }
        return entries
    }()

    /// The longest an input may take here (a hang found by a target is a timeout over 1 s).
    static let timeLimit: Duration = .seconds(10)

    static func files(in directory: URL) throws -> [URL] {
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") && !$0.lastPathComponent.hasSuffix(".rst") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// The outcome of one run and its wall-clock time.
    static func timed(_ run: () async -> FuzzOutcome) async -> (FuzzOutcome, Duration) {
        let started = ContinuousClock.now
        let outcome = await run()
        return (outcome, ContinuousClock.now - started)
    }

    /// Runs each file through `target`; returns how many were read (not refused).
    static func check(_ target: FuzzTarget, _ files: [URL], key: (URL) -> String) async throws -> Int {
        var accepted = 0
        for file in files {
            if let reason = open[key(file)] {
                withKnownIssue("\(key(file)) is open: \(reason)", isIntermittent: true) {
                    Issue.record("not run until fixed")
                }
                continue
            }
            let data = try Data(contentsOf: file)
            var (outcome, elapsed) = await timed { await target.run(data) }
            #expect(outcome.problem == nil, "\(key(file)): \(outcome.problem ?? "")")
            // libFuzzer's limit is 1 s an input in a release build; a debug
            // build on a busy machine is allowed ten times that. The clock is
            // the wall's, and the suites run in parallel on a pool of one
            // thread per core, so an input can wait behind other tests' work
            // (a scenario seed once "took" 82 s in CI, 0.05 s alone): like
            // `scripts/fuzz`, an input over the limit counts as slow only if
            // it stays over it twice more.
            for _ in 0..<2 where elapsed >= Self.timeLimit {
                elapsed = min(elapsed, await timed { await target.run(data) }.1)
            }
            #expect(elapsed < Self.timeLimit, "\(key(file)) took \(elapsed), three times")
            if case .accepted = outcome { accepted += 1 }
        }
        return accepted
    }

    @Test("every regression folder names a target, every open entry a file")
    func foldersNameTargets() throws {
        for url in try Self.files(in: Self.regressions) where url.lastPathComponent != "open.txt" {
            #expect(FuzzTargets.named(url.lastPathComponent) != nil, "fuzz-regressions/\(url.lastPathComponent) is not a fuzz target")
        }
        for key in Self.open.keys {
            let exists = FileManager.default.fileExists(atPath: Self.regressions.appendingPathComponent(key).path)
                || FileManager.default.fileExists(atPath: Self.seeds.appendingPathComponent(key).path)
            #expect(exists, "open.txt names \(key), which is neither a regression input nor a seed")
        }
    }

    @Test("every input a target found gives a result or a clean error", arguments: FuzzTargets.all.map(\.name))
    func regressionInputs(target name: String) async throws {
        let target = try #require(FuzzTargets.named(name))
        _ = try await Self.check(target, try Self.files(in: Self.regressions.appendingPathComponent(name))) { "\(name)/\($0.lastPathComponent)" }
    }

    /// The last target of each format: it reads the most (`ics-expand` loads and
    /// expands what `ics-lexer` and `ics-calendar` only read), so the seeds go
    /// through it alone.
    static var deepestTargetOfEachFormat: [String] {
        var byFormat: [String: String] = [:]
        for target in FuzzTargets.all { byFormat[target.format] = target.name }
        return byFormat.values.sorted()
    }

    /// The seeds must be read, not just survived: a target that refuses all of
    /// them (a broken harness, a scratch file in the wrong place) would fuzz
    /// nothing but its error paths.
    @Test("every seed gives a result or a clean error, and some are read", arguments: deepestTargetOfEachFormat)
    func seedInputs(target name: String) async throws {
        let target = try #require(FuzzTargets.named(name))
        let files = try Self.files(in: Self.seeds.appendingPathComponent(target.format))
        try #require(!files.isEmpty, "no seeds in Fuzz/Corpus/\(target.format)")
        let accepted = try await Self.check(target, files) { "\(target.format)/\($0.lastPathComponent)" }
        #expect(accepted > 0, "\(name) refused every seed of Fuzz/Corpus/\(target.format)")
    }
}
