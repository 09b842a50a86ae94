/// How much of a run a map draws, so that a map of any run stays readable and
/// its maker's memory stays constant in the number of fixes.
///
/// The rule, with the defaults:
/// - **Devices**: the tracks of at most 200 devices. With more, the 200 whose
///   identifiers have the smallest hash (64-bit FNV-1a of the UTF-8 bytes) are
///   drawn: a choice that does not depend on the order of the log, and is the same
///   in every run of the same log.
/// - **Fixes**: at most about 1,000,000 track fixes. Beyond that, every 2ᵏ-th fix
///   of each drawn device (k the smallest that keeps the total under the budget),
///   and each device's last fix.
/// - **Events**: every event up to 100,000 markers; beyond that, every 2ᵏ-th event.
/// - On the map, consecutive fixes of a track closer than half a pixel are merged
///   (nothing visible is lost).
///
/// Whenever anything is left out, the map's legend says what and how.
public struct MapSampling: Sendable, Hashable {
    /// Devices whose tracks are drawn, at most.
    public var maxTrackDevices = 200
    /// Track fixes drawn, about at most (a power-of-two stride is chosen as the log streams).
    public var maxTrackFixes = 1_000_000
    /// Event markers drawn, at most.
    public var maxEvents = 100_000
    /// Up to this many drawn devices, each has its own colour, a wider line and
    /// its name in the legend; beyond, all tracks are thin.
    public var namedDevices = 10

    /// The defaults above.
    public init() {}

    /// A sampling with other limits (each at least 1).
    public init(maxTrackDevices: Int, maxTrackFixes: Int, maxEvents: Int, namedDevices: Int = 10) {
        self.maxTrackDevices = max(1, maxTrackDevices)
        self.maxTrackFixes = max(1, maxTrackFixes)
        self.maxEvents = max(1, maxEvents)
        self.namedDevices = max(0, namedDevices)
    }

    /// The hash that chooses devices: 64-bit FNV-1a over the UTF-8 bytes (stable
    /// across runs and platforms, unlike `Hasher`).
    public static func deviceHash(_ identifier: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in identifier.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}
