import Foundation
import Testing
import TestSupport

/// The tests' scratch folder: made once per process, and the folders that
/// killed runs left behind removed, but only theirs.
@Suite("Scratch folder of the tests")
struct ScratchFolderTests {
    @Test func theFolderIsThisProcesssAndExists() {
        #expect(ScratchFolder.url.lastPathComponent == "triggerengine-tests-\(getpid())")
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: ScratchFolder.url.path, isDirectory: &isFolder) && isFolder.boolValue)
        #expect(ScratchFolder.path("x.csv").deletingLastPathComponent().path == ScratchFolder.url.path)
    }

    @Test func onlyTheFoldersOfEndedProcessesAreRemoved() throws {
        let parent = ScratchFolder.path("cleanup-\(UUID())")
        // A process identifier that runs (ours, our parent's) and one past the
        // kernel's limit (4,194,304 at most), which no process can have.
        let names = ["triggerengine-tests-\(getpid())", "triggerengine-tests-\(getppid())",
                     "triggerengine-tests-99999999", "triggerengine-tests-pg-99999999",
                     "triggerengine-tests-abc", "other-99999999"]
        for name in names {
            let folder = parent.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("x".utf8).write(to: folder.appendingPathComponent("file"))
        }
        ScratchFolder.removeFoldersOfEndedProcesses(in: parent)
        let left = try FileManager.default.contentsOfDirectory(atPath: parent.path).sorted()
        #expect(left == names.filter { $0 != "triggerengine-tests-99999999" }.sorted())
    }
}
