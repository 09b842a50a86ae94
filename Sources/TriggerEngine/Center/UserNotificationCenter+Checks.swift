/// What tests and benchmarks look at inside a center.
extension UserNotificationCenter {
    /// Heap entries in the dispatcher, stale ones included.
    @_spi(Internals) public var queueHeapCount: Int { dispatcher.heapCount }

    /// Traps when the dispatcher's arrays and heap disagree (`Dispatcher.checkInvariants`).
    package func checkQueueInvariants() { dispatcher.checkInvariants() }

    /// How many times a location monitor was built.
    @_spi(Internals) public var locationMonitorBuilds: Int { locations.builds }
}
