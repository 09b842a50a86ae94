internal import CGEOS

/// Owns one GEOS context (`GEOS_init_r` … `GEOS_finish_r`) and collects the
/// messages that GEOS's error and notice handlers deliver while it is in use.
///
/// A context belongs to one thread at a time, which is why the type is not
/// `Sendable`: give each owner or each worker thread its own. Every wrapper in this
/// folder keeps a strong reference to the context its handles were made in, so a
/// context outlives everything made with it.
@_spi(Internals) public final class GEOSContext {
    /// The C handle. Valid for the lifetime of this object.
    internal let handle: GEOSContextHandle_t

    /// Where the C handlers write; referenced unretained by GEOS, retained by `self`.
    private let inbox: MessageInbox

    /// Creates a context with error and notice handlers installed.
    @_spi(Internals) public init() {
        // GEOS_init_r returns a fresh handle; it only fails when allocation fails,
        // which Swift treats as fatal everywhere else too.
        handle = GEOS_init_r()
        inbox = MessageInbox()
        let userData = Unmanaged.passUnretained(inbox).toOpaque()
        // Both setters return the previous handler (none on a fresh context).
        _ = GEOSContext_setErrorMessageHandler_r(handle, { message, userData in
            guard let message, let userData else { return }
            Unmanaged<MessageInbox>.fromOpaque(userData).takeUnretainedValue()
                .lastError = String(cString: message)
        }, userData)
        _ = GEOSContext_setNoticeMessageHandler_r(handle, { message, userData in
            guard let message, let userData else { return }
            Unmanaged<MessageInbox>.fromOpaque(userData).takeUnretainedValue()
                .lastNotice = String(cString: message)
        }, userData)
    }

    deinit {
        GEOS_finish_r(handle)
    }

    /// The most recent notice GEOS reported (for example why a geometry is invalid),
    /// or `nil`.
    package var lastNotice: String? { inbox.lastNotice }

    /// Builds the error for a failed call of `function`, taking the message GEOS's
    /// error handler collected since the last failure.
    package func error(in function: String, otherwise fallback: String = "the call failed") -> GEOSError {
        let message = inbox.lastError ?? fallback
        inbox.lastError = nil
        return GEOSError(function: function, message: message)
    }

    /// Returns `pointer`, or throws the collected GEOS error when it is `nil`
    /// (the convention of every GEOS constructor: NULL on exception).
    package func check<Pointer>(_ pointer: Pointer?, _ function: String) throws(GEOSError) -> Pointer {
        guard let pointer else { throw error(in: function) }
        return pointer
    }

    /// Interprets a GEOS predicate result: 1 true, 0 false, 2 on exception.
    package func checkPredicate(_ result: CChar, _ function: String) throws(GEOSError) -> Bool {
        switch result {
        case 1: return true
        case 0: return false
        default: throw error(in: function)
        }
    }

    /// Interprets the status of GEOS functions that return 0 on exception and
    /// write their answer through an out-parameter.
    package func checkStatus(_ status: Int32, _ function: String) throws(GEOSError) {
        if status == 0 { throw error(in: function) }
    }
}

/// The mutable end of the C message handlers. Only touched on the context's thread.
private final class MessageInbox {
    var lastError: String?
    var lastNotice: String?
}
