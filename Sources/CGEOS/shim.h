// Only GEOS's reentrant (_r) API: every call names the context it runs in, so
// each owner or worker thread can have its own (see GEOSContext.swift).
#define GEOS_USE_ONLY_R_API
#include <geos_c.h>
