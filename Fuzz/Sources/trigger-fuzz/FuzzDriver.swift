import FuzzEntries
import Foundation

// `trigger-fuzz TARGET [libFuzzer options] [corpus…]`, or `trigger-fuzz --list`.
//
// Built with `swift build --sanitize=fuzzer --sanitize=address`: libFuzzer
// brings `main`, calls `LLVMFuzzerInitialize` with the command line before it
// reads its own options, then `LLVMFuzzerTestOneInput` with each input.

/// Picks the target from the first argument and removes it, so libFuzzer sees
/// only its own options. The target is also put in the environment
/// (`TRIGGER_FUZZ_TARGET`): libFuzzer re-runs its command line, without the
/// name, for `-fork`, `-jobs` and `-minimize_crash`.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<CInt>,
                             _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>) -> CInt {
    let arguments = argv.pointee
    let first = argc.pointee > 1 ? arguments[1].map { String(cString: $0) } : nil
    if first == "--list" {
        for target in FuzzTargets.all {
            print("\(target.name)\t\(target.format)\t\(target.summary)")
        }
        exit(0)
    }
    if let first, let target = FuzzTargets.named(first) {
        for index in 1..<Int(argc.pointee) { arguments[index] = arguments[index + 1] }
        argc.pointee -= 1
        setenv("TRIGGER_FUZZ_TARGET", target.name, 1)
    }
    guard let name = ProcessInfo.processInfo.environment["TRIGGER_FUZZ_TARGET"], let target = FuzzTargets.named(name) else {
        let names = FuzzTargets.all.map(\.name).joined(separator: ", ")
        report("usage: trigger-fuzz TARGET [libFuzzer options] [corpus…]   (targets: \(names); or --list)")
        exit(64)
    }
    selected = target
    return 0
}

/// libFuzzer's callback. A finding (a violated property, or an error the
/// command line would call internal) stops the run like a crash, so libFuzzer
/// saves the input and can minimise it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    if let problem = selected!.run(bytes).problem {
        report("trigger-fuzz: \(selected!.name): \(problem)")
        abort()
    }
    return 0
}

/// The target this process fuzzes, set once before libFuzzer starts.
nonisolated(unsafe) private var selected: FuzzTarget?

/// One line on standard error.
private func report(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
