internal import CICal

/// One libical component tree (`icalcomponent`) with exactly one owner.
///
/// The root of a parsed tree owns it and frees it with `icalcomponent_free`,
/// which frees the children too. A child read out of a tree is borrowed: it keeps
/// the root alive and frees nothing.
@_spi(Internals) public final class ICalComponent {
    /// The C handle, valid while this object lives.
    package let handle: OpaquePointer
    /// For a borrowed child: the root that owns the tree.
    private let root: ICalComponent?
    private var ownsHandle: Bool

    private init(taking handle: OpaquePointer) {
        self.handle = handle
        self.root = nil
        self.ownsHandle = true
    }

    private init(borrowing handle: OpaquePointer, of parent: ICalComponent) {
        self.handle = handle
        self.root = parent.root ?? parent
        self.ownsHandle = false
    }

    deinit {
        if ownsHandle { icalcomponent_free(handle) }
    }

    /// Hands the tree to a new C owner (a time zone given the component); this
    /// object will no longer free it.
    package func relinquishToZone() {
        precondition(ownsHandle, "relinquishToZone() on a component that does not own its tree")
        ownsHandle = false
    }

    /// Takes ownership of a component that nothing else owns.
    package static func taking(_ handle: OpaquePointer) -> ICalComponent {
        ICalComponent(taking: handle)
    }

    /// Parses iCalendar text (`icalparser_parse_string`).
    ///
    /// libical is lenient: a bad line becomes an `X-LIC-ERROR` property instead of
    /// a failure; `parseErrors()` lists them. The call fails only when nothing
    /// could be parsed at all.
    @_spi(Internals) public static func parse(_ text: String) throws(ICalError) -> ICalComponent {
        ICalLibrary.prepare()
        ICalError.clear()
        guard let handle = icalparser_parse_string(text) else {
            throw ICalError.current(while: "parsing iCalendar text")
                ?? ICalError(code: "no component", context: "parsing iCalendar text")
        }
        return ICalComponent(taking: handle)
    }

    /// A deep copy owned by the caller (`icalcomponent_new_clone`).
    package func clone() throws(ICalError) -> ICalComponent {
        guard let copy = icalcomponent_new_clone(handle) else {
            throw ICalError.current(while: "copying a component") ?? ICalError(code: "no memory", context: "copying a component")
        }
        return ICalComponent(taking: copy)
    }

    /// The component's kind (`icalcomponent_isa`).
    internal var kind: icalcomponent_kind { icalcomponent_isa(handle) }

    /// The kind's name, such as "VEVENT".
    package var kindName: String { String(cString: icalcomponent_kind_to_string(kind)) }

    /// The direct children of the given kind (`ICAL_ANY_COMPONENT` for all), borrowed.
    internal func children(_ kind: icalcomponent_kind = ICAL_ANY_COMPONENT) -> [ICalComponent] {
        var result: [ICalComponent] = []
        var child = icalcomponent_get_first_component(handle, kind)
        while let current = child {
            result.append(ICalComponent(borrowing: current, of: self))
            child = icalcomponent_get_next_component(handle, kind)
        }
        return result
    }

    /// The values of every property of `kind`, as libical writes them
    /// (`icalproperty_get_value_as_string_r`, freed here).
    internal func propertyValues(_ kind: icalproperty_kind) -> [String] {
        var values: [String] = []
        var property = icalcomponent_get_first_property(handle, kind)
        while let current = property {
            if let text = icalproperty_get_value_as_string_r(current) {
                values.append(String(cString: text))
                free(text)
            }
            property = icalcomponent_get_next_property(handle, kind)
        }
        return values
    }

    /// The `X-LIC-ERROR` texts libical left in this tree where it could not parse
    /// a line, depth first.
    package func parseErrors() -> [String] {
        var errors = propertyValues(ICAL_XLICERROR_PROPERTY)
        for child in children() { errors += child.parseErrors() }
        return errors
    }

    /// The component serialised as iCalendar text (`icalcomponent_as_ical_string_r`).
    package func icalString() -> String {
        guard let text = icalcomponent_as_ical_string_r(handle) else { return "" }
        defer { free(text) }
        return String(cString: text)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
