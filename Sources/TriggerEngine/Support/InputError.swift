/// Why the library's readers could not read their input: what the region,
/// location-log, calendar and geofence-run readers throw, one type to switch on.
///
///     do {
///         let calendar = try ICSCalendar.load(path: "team.ics")
///     } catch .file(let error) {
///         print("cannot open \(error.path): \(error.reason)")
///     } catch .data(let error) {
///         print("\(error.location?.description ?? "input"): \(error.message)")
///     } catch {
///         print(error)
///     }
public enum InputError: Error, Sendable, CustomStringConvertible {
    /// The file does not exist or cannot be read.
    case file(InputFileError)
    /// The content is malformed or out of bounds, at a file and line where known.
    case data(DataError)
    /// GEOS could not handle a geometry (beyond a `data` problem it explains).
    case geometry(GEOSError)
    /// libical could not handle a calendar.
    case calendar(ICalError)
    /// A temporary file the reader needed could not be written or read back (a full disk).
    case temporaryStorage(MapSpoolError)
    /// The closure the caller handed to the reader threw this; reading stopped there.
    case handler(any Error)

    /// The error inside, as it describes itself (`FILE:LINE: message` for `data`).
    public var description: String { "\(underlying)" }

    /// The error inside, whatever its case.
    public var underlying: any Error {
        switch self {
        case .file(let error): error
        case .data(let error): error
        case .geometry(let error): error
        case .calendar(let error): error
        case .temporaryStorage(let error): error
        case .handler(let error): error
        }
    }

    /// `error` as the reader layer reports it: the readers' own error types in
    /// their cases, anything else (an I/O failure of the system) as `data`.
    package init(_ error: any Error) {
        switch error {
        case let error as InputError: self = error
        case let error as HandlerFailure: self = .handler(error.error)
        case let error as InputFileError: self = .file(error)
        case let error as DataError: self = .data(error)
        case let error as GEOSError: self = .geometry(error)
        case let error as ICalError: self = .calendar(error)
        case let error as MapSpoolError: self = .temporaryStorage(error)
        default: self = .data(DataError("\(error)"))
        }
    }

    /// Runs a public reader's body: what it throws comes out as an `InputError`.
    package static func reading<Value>(_ read: () throws -> Value) throws(InputError) -> Value {
        do {
            return try read()
        } catch {
            throw InputError(error)
        }
    }

    /// Calls the caller's `body`, marking what it throws as the caller's own
    /// (`handler`), so that an error of the caller is never taken for the input's.
    package static func calling<Argument>(_ body: (Argument) throws -> Void, with argument: Argument) throws {
        do {
            try body(argument)
        } catch {
            throw HandlerFailure(error: error)
        }
    }

    /// What a caller's closure threw, on its way out of a reader.
    package struct HandlerFailure: Error {
        package var error: any Error
    }
}
