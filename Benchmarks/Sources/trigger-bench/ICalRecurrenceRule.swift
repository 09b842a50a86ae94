import CLibICal
import TriggerEngine
import Glibc

/// An RRULE parsed by libical (`icalrecurrencetype_from_string`), kept so that
/// many iterators can start from it without parsing the text again: the
/// benchmark times libical's iterator (`icalrecur_iterator_new`,
/// `icalrecur_iterator_set_start`, `icalrecur_iterator_next`) on its own.
///
/// The parsed value is a plain C struct, except for its `rscale` string, which
/// libical allocates when the rule names RSCALE; this object owns it and frees
/// it in `deinit`. `icalrecur_iterator_new` copies the struct, pointer
/// included, so an iterator made from a rule holds on to the rule.
final class ICalRecurrenceRule {
    /// The parsed rule; `rscale` owned by this object.
    let recurrence: icalrecurrencetype
    /// The text it was parsed from, for error messages.
    let text: String

    /// Parses `text` (`icalrecurrencetype_from_string`, which signals a bad rule
    /// by returning `freq == ICAL_NO_RECURRENCE` and setting `icalerrno`).
    init(parsing text: String) throws(ICalError) {
        LibICalPeer.prepare()
        icalerror_clear_errno()
        let recurrence = icalrecurrencetype_from_string(text)
        guard recurrence.freq != ICAL_NO_RECURRENCE else {
            // On failure libical has cleared the struct (rscale NULL): nothing to free.
            throw LibICalPeer.error(while: "RRULE \(text)") ?? ICalError(code: "malformed rule", context: "RRULE \(text)")
        }
        self.recurrence = recurrence
        self.text = text
    }

    deinit {
        free(recurrence.rscale)
    }
}
