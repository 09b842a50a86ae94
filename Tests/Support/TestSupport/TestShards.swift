import Foundation

/// The seeded shards a long differential test runs: `@Test(arguments: TestShards.of(4))`.
///
/// The calendar's differential tests draw their queries from seeds, one per
/// shard (`seed: base + shard`), and each shard checks its own answers and its
/// own coverage (how many queries took the path under test). They are most of
/// the suite's time: 840 of its 1,090 seconds run one test at a time. By
/// default a test runs the first half of its shards (rounded up, so shard 0
/// always), which keeps CI within its 30 minutes on a slow 2-core machine;
/// `TRIGGERENGINE_ALL_SHARDS=1` runs them all, as the suite did before
/// 1 Dec 2026. Tests whose shards play different roles (half with a day, half
/// without) list their shards themselves.
public enum TestShards {
    /// Whether every shard runs (`TRIGGERENGINE_ALL_SHARDS=1`).
    public static let all = ProcessInfo.processInfo.environment["TRIGGERENGINE_ALL_SHARDS"] == "1"

    /// The shards to run of a test that has `count`.
    public static func of(_ count: Int) -> Range<Int> {
        0..<(all ? count : (count + 1) / 2)
    }
}
