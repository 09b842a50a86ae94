/// Facts about this build of the library.
public enum TriggerEngineInfo {
    /// The library's version, which `trigger-eval --version` prints.
    public static let version = "0.1.0"
}
