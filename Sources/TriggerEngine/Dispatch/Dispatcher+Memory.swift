extension Dispatcher {
    /// Bytes of queue bookkeeping per pending request, from `MemoryLayout`: one
    /// heap entry, the per-slot arrays (the request slot excluded: that is the
    /// request itself; its compiled `FireSchedule` included), and the identifier
    /// index entry at the standard library's 3/4 maximum load factor. Request
    /// payloads and the interned triggers (one per distinct trigger, not per
    /// request) are not counted.
    @_spi(Internals) public static var queueBytesPerRequest: Int {
        let slotArrays = MemoryLayout<Double>.stride * 2 + MemoryLayout<UInt64>.stride + MemoryLayout<UInt32>.stride
            + MemoryLayout<FireSchedule>.stride
        let indexEntry = (MemoryLayout<String>.stride + MemoryLayout<Int32>.stride) * 4 / 3
        return MemoryLayout<Entry>.stride + slotArrays + indexEntry
    }
}
