#if canImport(Glibc)
import Glibc
#endif

/// Runs a command from an `atexit` handler: `posix_spawn` and `waitpid`, with
/// no Foundation `Process` and no Dispatch, and a bound on the wait.
///
/// At exit, other threads may still hold what Foundation's `Process` needs
/// (its launch queue, the run loop it spins in `waitUntilExit`), and a wait
/// that never ends there keeps the test process from exiting: `swift test`,
/// and CI with it, then wait until CI's deadline. This cannot hang for longer
/// than its bound, and its output goes to /dev/null (nothing reads a pipe then).
public enum ExitTimeCommand {
    /// Runs `path arguments…`; true when it exited with status 0 within
    /// `seconds`. Past the bound the command is killed (SIGKILL) and left.
    @discardableResult
    public static func run(_ path: String, _ arguments: [String], atMostSeconds seconds: Int) -> Bool {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in 0...2 {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else { return false }
        var status: Int32 = 0
        for _ in 0..<(seconds * 100) {
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid { return exitedNormally(status) && exitCode(status) == 0 }
            if waited < 0 { return false }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        _ = waitpid(pid, &status, 0)
        return false
    }

    // WIFEXITED and WEXITSTATUS are macros Swift does not import.
    private static func exitedNormally(_ status: Int32) -> Bool { status & 0x7f == 0 }
    private static func exitCode(_ status: Int32) -> Int32 { (status >> 8) & 0xff }
}
