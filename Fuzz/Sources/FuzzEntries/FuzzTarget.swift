import Foundation
import TriggerEngine

/// One fuzz target: a reader or parser of TriggerEngine driven by arbitrary bytes.
///
/// The same entry points run under libFuzzer (`Fuzz/`, `scripts/fuzz`) and in the
/// regular tests (`FuzzRegressionTests`, every file of
/// `Fixtures/fuzz-regressions/<name>/`), so a crash found once stays fixed.
/// An entry point bounds the work it asks for (a window, a number of fires,
/// instances or deliveries) so that a timeout means the library hung, not that
/// the input asked for a long answer.
public struct FuzzTarget: Sendable {
    /// The name `scripts/fuzz` and the regression folders use (`ics-lexer`).
    public let name: String
    /// What the target exercises, for `scripts/fuzz --list`.
    public let summary: String
    /// The input format, which names its seeds (`Fuzz/Corpus/<format>/`) and its
    /// dictionary (`Fuzz/Dictionaries/<format>.dict`), shared by targets of one format.
    public let format: String
    private let body: Body

    /// A reader is called synchronously; the notification center is an actor.
    enum Body: Sendable {
        case sync(@Sendable (UnsafeRawBufferPointer) -> FuzzOutcome)
        case async(@Sendable (Data) async -> FuzzOutcome)
    }

    init(name: String, summary: String, format: String,
         run: @escaping @Sendable (UnsafeRawBufferPointer) -> FuzzOutcome) {
        self.name = name
        self.summary = summary
        self.format = format
        self.body = .sync(run)
    }

    init(name: String, summary: String, format: String, runAsync: @escaping @Sendable (Data) async -> FuzzOutcome) {
        self.name = name
        self.summary = summary
        self.format = format
        self.body = .async(runAsync)
    }

    /// Feeds `bytes` to the reader, blocking until it is done: for libFuzzer's
    /// callback, which runs on a thread of its own (never the concurrency pool's).
    public func run(_ bytes: UnsafeRawBufferPointer) -> FuzzOutcome {
        switch body {
        case .sync(let run): return run(bytes)
        case .async(let run):
            let exchange = Exchange(input: Data(bytes))
            let done = DispatchSemaphore(value: 0)
            Task {
                exchange.outcome = await run(exchange.takeInput())
                done.signal()
            }
            done.wait()
            return exchange.takeOutcome()
        }
    }

    /// Feeds `bytes` to the reader: for tests, which run on the concurrency pool.
    public func run(_ data: Data) async -> FuzzOutcome {
        switch body {
        case .sync(let run): return data.withUnsafeBytes { run($0) }
        case .async(let run): return await run(data)
        }
    }
}

/// Carries the input to the task and its outcome back to the thread waiting on
/// the semaphore, so that neither outlives the callback inside the task.
///
/// The task signals before it has finished: its captures are released a moment
/// later on a pool thread, after libFuzzer may already have run its leak check.
/// A `Data` or `String` still held there is reachable only through a pointer
/// whose spare bits carry an enum tag, which LeakSanitizer does not recognise,
/// so it was reported as leaked (CI, stop 32: the 53-byte input of a scenario,
/// one run in three). Taken out of the box, the input is released before the
/// signal and the outcome is owned by the waiter alone; the box itself is a
/// plain reference.
///
/// `@unchecked Sendable`: the input is taken once by the task, the outcome
/// written once by the task before it signals and taken once by the waiter
/// after the signal.
private final class Exchange: @unchecked Sendable {
    private var input: Data?
    var outcome: FuzzOutcome?

    init(input: Data) { self.input = input }

    func takeInput() -> Data {
        defer { input = nil }
        return input!
    }

    func takeOutcome() -> FuzzOutcome {
        defer { outcome = nil }
        return outcome!
    }
}

/// What an input did to a reader.
public enum FuzzOutcome: Sendable {
    /// Read; `count` things came out (occurrences, fires, events, regions…).
    case accepted(count: Int)
    /// Refused with the error the command line would report.
    case rejected(any Error)
    /// A property every answer must have does not hold (fires out of order, a
    /// round trip that changes the value, an error the contract calls internal):
    /// a finding, like a crash.
    case violated(String)

    /// Runs `body`, turning what it throws into `.rejected`.
    static func catching(_ body: () throws -> FuzzOutcome) -> FuzzOutcome {
        do {
            return try body()
        } catch {
            let error = Self.unwrapped(error)
            if let violation = error as? FuzzViolation { return .violated(violation.description) }
            return .rejected(error)
        }
    }

    /// What a reader threw, out of its `InputError` (whose `handler` case holds
    /// what a target's own closure threw, a violation among them).
    static func unwrapped(_ error: any Error) -> any Error {
        (error as? InputError)?.underlying ?? error
    }

    /// `nil` when the outcome is a clean result or a clean error; else what is wrong.
    /// A clean error is one the command line reports as bad input (exit 65) or an
    /// unreadable file (66): anything else would be "internal error" (70).
    public var problem: String? {
        switch self {
        case .accepted: return nil
        case .violated(let message): return message
        case .rejected(let error):
            switch error {
            case let error as DataError: return error.message.isEmpty ? "a DataError without a message" : nil
            case is InputFileError, is GEOSError, is ICalError: return nil
            default: return "an error the command line would call internal (exit 70): \(String(reflecting: error))"
            }
        }
    }
}

/// Every target, in the order `scripts/fuzz --list` shows them.
public enum FuzzTargets {
    public static let all: [FuzzTarget] = [
        icsLexer, icsCalendar, icsExpand,
        recurrenceRule, rfc3339,
        geoJSON, wkt,
        fixesCSV, fixesNDJSON, fixesGPX,
        nextQueries,
        scenario,
        // The command lines of `trigger-eval run` get their target here once
        // `run` exists (issue 14): `runCommands`, one NDJSON command a line.
    ]

    /// The target called `name`.
    public static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}
