import Foundation
import Synchronization

/// Removing an output's temporary file when the process dies of a signal: a
/// trap (SIGILL, SIGTRAP), a crash (SIGSEGV, SIGBUS, SIGFPE, SIGABRT) or the
/// user's interrupt (SIGINT, SIGTERM, SIGHUP, SIGQUIT). A thrown error already
/// reaches `abandon()`; a signal skips every `deinit` and `defer`, so without
/// this a failed run would leave its `.partial` file behind.
///
/// The handler only reads a fixed table of C strings and calls `unlink`, both
/// safe in a signal handler; then it hands the signal on to whoever handled it
/// before (Swift's backtracer, or the default action), so the exit status and
/// any crash report stay what they would have been. SIGKILL cannot be caught,
/// and a stack overflow on a thread other than the main one has no stack left
/// to run the handler on.
enum TemporaryFileCleanup {
    /// The signals after which the temporary files are removed.
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV]
    /// Room for this many temporary files at once (a run writes one).
    private static let capacity = 8

    // Each slot is the address of a C string, or 0, stored atomically: written
    // under `lock` by `register`/`unregister`, read by the handler, which can
    // take no lock (ThreadSanitizer saw the plain loads race with the stores).
    // `nonisolated(unsafe)`: the pointer itself never changes.
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<Atomic<Int>> = {
        let slots = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: capacity)
        for index in 0..<capacity { (slots + index).initialize(to: Atomic(0)) }
        return slots
    }()
    /// The handlers installed before ours, by signal number.
    nonisolated(unsafe) private static let previous: UnsafeMutablePointer<sigaction> = {
        let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        previous.initialize(repeating: sigaction(), count: 65)
        return previous
    }()
    private static let lock = NSLock()
    nonisolated(unsafe) private static var installed = false

    /// Records `path` for removal if a signal ends the process; returns the
    /// slot to pass to `unregister`, or `nil` when the table is full.
    static func register(_ path: String) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        if !installed {
            installed = true
            install()
        }
        guard let slot = (0..<capacity).first(where: { slots[$0].load(ordering: .relaxed) == 0 }) else { return nil }
        slots[slot].store(Int(bitPattern: strdup(path)), ordering: .releasing)
        return slot
    }

    /// Forgets a path once the output was committed or abandoned.
    static func unregister(_ slot: Int?) {
        guard let slot else { return }
        lock.lock()
        defer { lock.unlock() }
        free(UnsafeMutablePointer<CChar>(bitPattern: slots[slot].exchange(0, ordering: .acquiringAndReleasing)))
    }

    private static func install() {
        // The handler runs on an alternate stack, so a stack overflow on the main thread still cleans up.
        // Mapped, not allocated: it is the thread's for good, and a sanitizer's
        // runtime, which unmaps a thread's alternate stack when the thread
        // ends, expects pages (a malloc'd one made ASan abort, "unable to unmmap").
        let size = 64 * 1024
        if let pages = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), pages != MAP_FAILED {
            var stack = stack_t()
            stack.ss_sp = pages
            stack.ss_size = size
            sigaltstack(&stack, nil)
        }
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = { signal, info, _ in
                // The interrupted code may be about to read errno: leave it as it was.
                let interrupted = errno
                defer { errno = interrupted }
                TemporaryFileCleanup.removeAll()
                TemporaryFileCleanup.handOn(signal, sentByProcess: (info?.pointee.si_code ?? 0) <= 0)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = Int32(SA_SIGINFO | SA_ONSTACK)
            sigaction(signal, &action, previous + Int(signal))
        }
        // exit() from anywhere (a library calling it, a fatal path) skips deinit too.
        atexit { TemporaryFileCleanup.removeAll() }
    }

    /// In the handler: unlink every registered path.
    private static func removeAll() {
        for slot in 0..<capacity {
            if let path = UnsafePointer<CChar>(bitPattern: slots[slot].load(ordering: .acquiring)) { unlink(path) }
        }
    }

    /// In the handler: put the previous handler back and let it have the signal.
    /// A fault the kernel raised (a trap, a bad access) comes back by itself
    /// when the handler returns, as the faulting instruction runs again; a
    /// signal another process sent (`kill`, si_code ≤ 0) is raised again.
    private static func handOn(_ signal: Int32, sentByProcess: Bool) {
        sigaction(signal, previous + Int(signal), nil)
        // Plain comparisons: nothing in a handler may allocate.
        let isFault = signal == SIGILL || signal == SIGTRAP || signal == SIGBUS || signal == SIGFPE || signal == SIGSEGV
        if isFault && !sentByProcess { return }
        raise(signal)
    }
}
