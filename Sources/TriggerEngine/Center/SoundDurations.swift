import Foundation

/// The durations of custom sound files, read once per file name: a delivery
/// with a named sound must not read the file again each time.
struct SoundDurations {
    /// Seconds per file name; `nil` for a file that is missing or unreadable.
    private var seconds: [String: Double?] = [:]

    /// Whether the sound `name` in `directory` may play: Apple plays the
    /// default sound instead of a custom one that is missing, unreadable or
    /// longer than 30 seconds.
    mutating func isPlayable(_ name: String, in directory: URL) -> Bool {
        let duration: Double?
        if let known = seconds[name] {
            duration = known
        } else {
            duration = SoundFile.duration(of: directory.appendingPathComponent(name))
            seconds[name] = duration
        }
        guard let duration else { return false }
        return duration <= NotificationSound.maximumDuration
    }
}
