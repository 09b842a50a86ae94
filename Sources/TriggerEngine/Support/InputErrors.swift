/// Where in an input something is: a file (or `-` for standard input) and,
/// where it applies, a 1-based line.
public struct InputLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file's path as the user gave it, `-` for standard input.
    public var file: String
    /// The 1-based line, when the problem is on one line.
    public var line: Int?

    /// Creates a location.
    public init(file: String, line: Int? = nil) {
        self.file = file
        self.line = line
    }

    /// `FILE:LINE`, or `FILE` without a line.
    public var description: String {
        if let line { return "\(file):\(line)" }
        return file
    }
}

/// Input data that cannot be used: a malformed row, an out-of-range value, an
/// unknown zone, an invalid polygon. The message says what is wrong and, where it
/// can, what would be right.
public struct DataError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the bad data is, when it came from a file.
    public var location: InputLocation?
    /// What is wrong.
    public var message: String

    /// Creates an error for `message` at `location`.
    public init(_ message: String, at location: InputLocation? = nil) {
        self.message = message
        self.location = location
    }

    /// `FILE:LINE: message`, or just the message.
    public var description: String {
        if let location { return "\(location): \(message)" }
        return message
    }

    /// The same error placed at `location`, unless it already has one.
    public func located(at location: InputLocation) -> DataError {
        self.location == nil ? DataError(message, at: location) : self
    }
}

/// An input file that does not exist or cannot be read.
public struct InputFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path as given.
    public var path: String
    /// The reason, from the operating system.
    public var reason: String

    /// Creates an error for `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
