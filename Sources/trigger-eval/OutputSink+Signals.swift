import Foundation

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

    // `nonisolated(unsafe)`: the table is written only under `lock` by
    // `register`/`unregister` (one pointer store per slot) and read by the
    // handler, which needs no lock: a slot holds nil or a complete C string.
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        slots.initialize(repeating: nil, count: capacity)
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
        guard let slot = (0..<capacity).first(where: { slots[$0] == nil }) else { return nil }
        slots[slot] = strdup(path)
        return slot
    }

    /// Forgets a path once the output was committed or abandoned.
    static func unregister(_ slot: Int?) {
        guard let slot else { return }
        lock.lock()
        defer { lock.unlock() }
        let path = slots[slot]
        slots[slot] = nil
        free(path)
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
            if let path = slots[slot] { unlink(path) }
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
