import ArgumentParser
import Foundation
@_spi(Internals) import TriggerEngine

/// `trigger-bench next`: `next --batch` end to end (this binary run as a
/// child on a generated file: reading, parsing, the fires, writing) on one
/// simple shape and on a random mix, against the engine's own time on the same
/// queries in process (each query built from its parsed fields and answered,
/// nothing read or written).
struct BenchNext: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "next",
        abstract: "next --batch: queries/s end to end on 07:00 daily and on a random mix, against the engine's own time."
    )

    @Option(help: "Queries of the simple shape (07:00 daily in Europe/Berlin, count 1).")
    var simple = 1_000_000

    @Option(help: "Queries of the random mix (14 shapes in 14 zones, count 1–3).")
    var mix = 200_000

    @Option(help: "Timed runs of each; the median is reported.")
    var runs = 3

    @Option(help: "Seed of the generated queries.")
    var seed: UInt64 = 15

    /// Fourteen component sets real triggers use.
    static let shapes: [String] = [
        #"{"hour":7,"minute":0}"#, #"{"weekday":2,"hour":9,"minute":30}"#, #"{"day":1,"hour":8,"minute":0}"#,
        #"{"minute":15}"#, #"{"month":12,"day":24,"hour":18,"minute":0}"#, #"{"weekday":6,"weekdayOrdinal":4,"hour":17,"minute":0}"#,
        #"{"weekday":1,"weekdayOrdinal":2,"hour":10,"minute":0}"#, #"{"hour":22,"minute":45}"#, #"{"day":15,"hour":12,"minute":0}"#,
        #"{"weekday":7,"hour":11,"minute":0}"#, #"{"second":30}"#, #"{"month":2,"day":29,"hour":8,"minute":0}"#,
        #"{"weekday":4,"hour":0,"minute":0}"#, #"{"month":1,"day":1,"hour":0,"minute":0}"#,
    ]
    static let zones = ["America/New_York", "Europe/Berlin", "Asia/Kolkata", "Australia/Sydney", "UTC", "America/Los_Angeles",
                        "Europe/London", "Asia/Tokyo", "America/Sao_Paulo", "Africa/Cairo", "Pacific/Auckland",
                        "Australia/Lord_Howe", "America/Santiago", "Asia/Tehran"]

    func run() async throws {
        print("trigger-bench next (load average \(BenchCenter.loadAverage())), medians of \(runs) runs")
        var random = BenchRandom(seed: seed)
        let simpleLines = (0..<simple).map { _ in
            #"{"components":{"hour":7,"minute":0},"tz":"Europe/Berlin","after":"\#(Self.after(&random))","count":1}"#
        }
        try measure("07:00 daily, Europe/Berlin, count 1", simpleLines)
        let mixLines = (0..<mix).map { _ in
            let shape = Self.shapes[Int(random.next() % UInt64(Self.shapes.count))]
            let zone = Self.zones[Int(random.next() % UInt64(Self.zones.count))]
            return #"{"components":\#(shape),"tz":"\#(zone)","after":"\#(Self.after(&random))","count":\#(1 + random.next() % 3)}"#
        }
        try measure("random mix: 14 shapes × 14 zones, count 1–3", mixLines)
    }

    /// A random instant in 2000–2040, as RFC 3339.
    static func after(_ random: inout BenchRandom) -> String {
        RFC3339.string(from: Date(timeIntervalSince1970: 946_684_800 + Double(random.next() % 1_262_304_000)))
    }

    private func measure(_ name: String, _ lines: [String]) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-next-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("queries.ndjson").path
        let output = directory.appendingPathComponent("fires.ndjson").path
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: input))
        // End to end: this binary, as a user runs it.
        var cli: [Double] = [], cliCPU: [Double] = []
        for _ in 0..<runs {
            let time = try Repository.timeTriggerEval(["next", "--batch", input, "-o", output])
            cli.append(time.wall)
            cliCPU.append(time.cpu)
        }
        // The engine alone: each query built from its fields (parsed beforehand) and answered.
        let now = Date()
        let fields = try lines.map { line in try Array(line.utf8).withUnsafeBufferPointer { try FireDateQuery.Fields(jsonLine: $0) } }
        var engine: [Double] = []
        var checksum = 0.0
        for _ in 0..<runs {
            let began = Date()
            for field in fields {
                let query = try FireDateQuery(field, defaultZone: "UTC", now: now)
                query.forEachFireDate { checksum += $0.timeIntervalSince1970 }
            }
            engine.append(Date().timeIntervalSince(began))
        }
        let cliTime = cli.sorted()[runs / 2], engineTime = engine.sorted()[runs / 2], cpuTime = cliCPU.sorted()[runs / 2]
        print("  \(name): \(lines.count) queries")
        print(String(format: "    end to end (next --batch) %7.3f s = %9.0f queries/s   (CPU time %.3f s on %d cores)",
                     cliTime, Double(lines.count) / cliTime, cpuTime, ProcessInfo.processInfo.activeProcessorCount))
        // The CLI answers on every core, the engine loop on one: the wall-time
        // ratio is what a user sees, the CPU-time ratio what the CLI's own work costs.
        print(String(format: "    engine alone (one thread)  %7.3f s = %9.0f queries/s   CLI / engine = %.2f× wall, %.2f× CPU  (checksum %.0f)",
                     engineTime, Double(lines.count) / engineTime, cliTime / engineTime, cpuTime / engineTime, checksum))
    }
}
