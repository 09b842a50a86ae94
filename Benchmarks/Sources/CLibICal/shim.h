// libical's core API: components, properties, times, time zones, recurrence.
#include <libical/ical.h>
