import Foundation

/// The folder a test process writes its temporary files and folders in:
/// `triggerengine-tests-<pid>` in the system's temporary folder, made on first
/// use and removed, with everything in it, when the process exits.
///
/// Tests name their files in it (with a UUID where tests run at once); none
/// needs to remove its own. A process that did not exit (killed, or crashed)
/// leaves its folder behind: the next process to make its own removes the
/// folders of processes that are gone. (Before this, twenty runs of the suite
/// had left about 900 files and 100 MB in `/tmp`.)
public enum ScratchFolder {
    /// What the folders' names start with, before the process identifier.
    static let prefix = "triggerengine-tests-"

    /// The folder of this process.
    public static let url: URL = {
        let parent = FileManager.default.temporaryDirectory
        removeFoldersOfEndedProcesses(in: parent)
        let url = parent.appendingPathComponent("\(prefix)\(getpid())", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            fatalError("cannot make the tests' scratch folder \(url.path): \(error)")
        }
        atexit { try? FileManager.default.removeItem(at: ScratchFolder.url) }
        return url
    }()

    /// A path in the folder for a file or folder called `name` (not made).
    public static func path(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// Removes the folders in `parent` named `triggerengine-tests-` and the
    /// identifier of a process that no longer runs; leaves every other name alone.
    public static func removeFoldersOfEndedProcesses(in parent: URL) {
        for folder in foldersOfEndedProcesses(in: parent, prefix: prefix) {
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// The entries of `parent` named `prefix` and the identifier of a process
    /// that no longer runs (a name with anything else after `prefix` is not one).
    public static func foldersOfEndedProcesses(in parent: URL, prefix: String) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        return names.filter { name in
            guard name.hasPrefix(prefix), let pid = pid_t(name.dropFirst(prefix.count)), pid > 0 else { return false }
            return kill(pid, 0) == -1 && errno == ESRCH
        }.map { parent.appendingPathComponent($0) }
    }
}
