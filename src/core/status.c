/* Names of the status codes, and the library's version. APLAN_NO_STATUS_STRINGS compiles the names out to save ROM
 * (nanopb's PB_NO_ERRMSG). */
#include "internal.h"

const char *aplan_version(void) { return APLAN_VERSION_STRING; }

uint32_t aplan_version_number(void) { return APLAN_VERSION_NUMBER; }

const char *aplan_status_str(aplan_status status) {
#ifdef APLAN_NO_STATUS_STRINGS
    (void)status;
    return "";
#else
    switch (status) {
    case APLAN_OK: return "ok";
    case APLAN_E_INVALID_ARG: return "invalid argument";
    case APLAN_E_TOO_MANY_BUFFERS: return "too many buffers";
    case APLAN_E_BAD_ALIGNMENT: return "alignment is not a power of two";
    case APLAN_E_BAD_LIFETIME: return "lifetime lower step is greater than upper step";
    case APLAN_E_MISALIGNED_OFFSET: return "offset is not a multiple of its alignment";
    case APLAN_E_SIZE_OVERFLOW: return "size or offset overflows 64 bits";
    case APLAN_E_CAPACITY_EXCEEDED: return "arena exceeds the capacity";
    case APLAN_E_SCRATCH_TOO_SMALL: return "scratch buffer too small";
    case APLAN_E_SCRATCH_MISALIGNED: return "scratch buffer misaligned";
    case APLAN_E_UNKNOWN_STRATEGY: return "unknown strategy";
    case APLAN_E_UNSUPPORTED_VERSION: return "unsupported strategy ABI version";
    case APLAN_E_OFFSET_MISSING: return "buffer has no fixed offset";
    case APLAN_E_UNPLACED: return "buffer not placed";
    case APLAN_E_FIXED_MOVED: return "fixed buffer moved";
    case APLAN_E_OUT_OF_ARENA: return "buffer ends beyond the arena";
    case APLAN_E_ARENA_MISMATCH: return "arena size is not the highest buffer end";
    case APLAN_E_OVERLAP: return "buffers overlap";
    case APLAN_E_FIXED_OVERLAP: return "fixed buffers overlap";
    case APLAN_E_PLAN_REJECTED: return "strategy's plan failed verification";
    case APLAN_E_STRATEGY_FAILED: return "strategy failed";
    case APLAN_E_OUT_OF_MEMORY: return "out of memory";
    case APLAN_E_BAD_REGION: return "bad region or region set";
    case APLAN_E_WRONG_REGION: return "buffer in a region it may not use";
    case APLAN_E_FORMAT_TRUNCATED: return "input truncated";
    case APLAN_E_FORMAT_BAD_OFFSET: return "offset or index points outside the input";
    case APLAN_E_FORMAT_BAD_VALUE: return "field value out of range";
    case APLAN_E_FORMAT_UNSUPPORTED: return "unsupported input feature";
    case APLAN_E_FORMAT_BAD_METADATA: return "malformed offline memory plan metadata";
    case APLAN_E_FORMAT_SYNTAX: return "syntax error";
    case APLAN_E_FORMAT_UNKNOWN: return "unrecognised input format";
    case APLAN_E_OUTPUT_TOO_SMALL: return "output array too small";
    }
    return "unknown status";
#endif
}
