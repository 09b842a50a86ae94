extension Dispatcher {
    /// Bytes of queue bookkeeping per pending request, from `MemoryLayout`: one
    /// heap entry, the per-slot arrays (request pointer-sized slot excluded: that
    /// is the request itself), and the identifier index entry at the standard
    /// library's 3/4 maximum load factor. Request payloads are not counted.
    public static var queueBytesPerRequest: Int {
        let slotArrays = MemoryLayout<Double>.stride * 2 + MemoryLayout<UInt64>.stride + MemoryLayout<UInt32>.stride
        let indexEntry = (MemoryLayout<String>.stride + MemoryLayout<Int32>.stride) * 4 / 3
        return MemoryLayout<Entry>.stride + slotArrays + indexEntry
    }
}
