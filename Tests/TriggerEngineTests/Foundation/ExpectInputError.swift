import Testing
@_spi(Internals) @testable import TriggerEngine

/// Runs `body`, a call of one of the library's readers, expecting it to throw
/// `InputError.data`; returns the `DataError` inside (nil after recording an
/// issue when something else happened).
@discardableResult
func expectInputDataError<Result>(sourceLocation: SourceLocation = #_sourceLocation,
                                  _ body: () throws -> Result) -> DataError? {
    do {
        _ = try body()
        Issue.record("expected InputError.data; nothing was thrown", sourceLocation: sourceLocation)
    } catch InputError.data(let error) {
        return error
    } catch {
        Issue.record("expected InputError.data, got \(type(of: error)): \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
