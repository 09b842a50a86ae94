#if PostgreSQL
import Foundation
@_spi(Internals) import TriggerEngine

/// How a `ClusterCenter` node shares the work.
public struct ClusterConfiguration: Sendable, Hashable {
    /// The node's name, written in the leases it takes: unique per running
    /// process (the default is the host, the process ID and a random suffix).
    public var node: String
    /// How long a claimed fire stays a node's: a node that dies holds its fires
    /// this long before the others take them over. Default 10 s.
    public var lease: Duration
    /// The most fires one claim takes. Default 256.
    public var batchSize: Int
    /// How often an idle node looks at the database when no wake-up arrives
    /// (a wake-up by NOTIFY normally comes first). Default 1 s.
    public var pollInterval: Duration

    /// A configuration; see each property.
    /// - Throws: `DataError` for a lease or poll interval not positive, or a batch size out of 1...10,000.
    public init(node: String? = nil, lease: Duration = .seconds(10), batchSize: Int = 256,
                pollInterval: Duration = .seconds(1)) throws(DataError) {
        guard lease > .zero, lease <= .seconds(3_600) else { throw DataError("lease \(lease) must be in (0, 1 h]") }
        guard (1...10_000).contains(batchSize) else { throw DataError("batch size \(batchSize) must be in 1...10000") }
        guard pollInterval > .zero else { throw DataError("poll interval \(pollInterval) must be positive") }
        self.node = node ?? "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier):\(UInt32.random(in: 0...UInt32.max))"
        self.lease = lease
        self.batchSize = batchSize
        self.pollInterval = pollInterval
    }
}
#endif
