/// Device identifiers interned from raw bytes: each distinct name gets the next
/// index, without making a `String` for every row (one per new device). Names are
/// compared as bytes in an arena.
///
/// Logs of fleets come in rounds: every device reports, in much the same order,
/// then again. So each device remembers which device came after it last time,
/// and the next name is first compared with that one; only a wrong guess is
/// hashed and looked up. On the hard geofence benchmark's log (10,000 devices in
/// rounds) the lookup's two cache misses, the slot and the stored hash, were a
/// third of the CSV reader's own time; with the guess the reader's run took a
/// tenth less CPU.
package struct DeviceTable {
    /// Names by index.
    package private(set) var names: [String] = []
    private var arena: [UInt8] = []
    /// Per device: where its bytes start in `arena` and how many.
    private var spans: [(start: Int, count: Int)] = []
    private var slots: [Int32]
    private var hashes: [UInt64] = []
    private var mask: Int
    /// Per device: the device named after it the last time it was named (−1: none yet).
    private var successors: [Int32] = []
    /// The device named last (−1: none yet).
    private var previous: Int32 = -1

    /// A random start for the hash, per table: a log cannot be written in advance so
    /// that its device names collide (interning would then take quadratic time).
    private let seed = UInt64.random(in: .min ... .max)

    package init() {
        slots = Array(repeating: -1, count: 1024)
        mask = 1023
    }

    /// The index of the device named by `bytes`, adding it when new.
    /// - Complexity: O(bytes) expected.
    @inline(__always)
    package mutating func index(of bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        if previous >= 0 {
            let guess = successors[Int(previous)]
            if guess >= 0 && equals(Int(guess), bytes) {
                previous = guess
                return guess
            }
        }
        let found = lookUp(bytes)
        if previous >= 0 { successors[Int(previous)] = found }
        previous = found
        return found
    }

    /// The index of the device named by `bytes` through the hash table, adding it when new.
    @inline(__always)
    private mutating func lookUp(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ seed
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        // FNV-1a, then a full mix so that the slot bits depend on every byte and the seed.
        hash = (hash ^ (hash >> 30)) &* 0xBF58_476D_1CE4_E5B9
        hash = (hash ^ (hash >> 27)) &* 0x94D0_49BB_1331_11EB
        hash ^= hash >> 31
        var slot = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
        while true {
            let index = slots[slot]
            if index < 0 { break }
            if hashes[Int(index)] == hash && equals(Int(index), bytes) { return index }
            slot = (slot + 1) & mask
        }
        let index = Int32(names.count)
        names.append(String(decoding: bytes, as: UTF8.self))
        spans.append((arena.count, bytes.count))
        arena.append(contentsOf: bytes)
        hashes.append(hash)
        successors.append(-1)
        slots[slot] = index
        if names.count * 2 > slots.count { grow() }
        return index
    }

    @inline(__always)
    private func equals(_ index: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let span = spans[index]
        return arena.withUnsafeBufferPointer { ShortBytes.equal(UnsafeBufferPointer(rebasing: $0[span.start..<(span.start + span.count)]), bytes) }
    }

    /// The index of `name`, adding it when new.
    package mutating func index(of name: String) -> Int32 {
        var name = name
        return name.withUTF8 { index(of: $0) }
    }

    private mutating func grow() {
        slots = Array(repeating: -1, count: slots.count * 2)
        mask = slots.count - 1
        for (index, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index)
        }
    }
}
