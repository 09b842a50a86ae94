import Foundation
import Testing

@Suite("trigger-eval: the contract's common rules")
struct CommonContractTests {
    @Test func helpListsSubcommandsAndExitsZero() throws {
        let result = try CLIRunner.run(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: trigger-eval"))
        #expect(result.stderr.isEmpty)
    }

    @Test func versionPrintsTheLibraryVersion() throws {
        let result = try CLIRunner.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
    }

    @Test func unknownOptionIsAUsageErrorOnOneLine() throws {
        let result = try CLIRunner.run(["--no-such-flag"])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("error: "))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}
