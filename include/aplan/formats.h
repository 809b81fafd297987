/*
 * What the input readers (<aplan/tflite.h>, <aplan/csv.h>) say when an input is bad: a status from the
 * APLAN_E_FORMAT_* range of aplan_status and where in the input it went wrong.
 */
#ifndef APLAN_FORMATS_H
#define APLAN_FORMATS_H

#include "aplan.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Where and why an input was rejected. Fields that do not apply are 0 (line/column are 1-based when set). */
typedef struct aplan_format_error {
    aplan_status status;  /**< APLAN_OK or an APLAN_E_FORMAT_* / APLAN_E_OUTPUT_TOO_SMALL code. */
    uint64_t byte_offset; /**< Byte of the input at which the problem was found. */
    uint32_t line;        /**< Text inputs: 1-based line, 0 for binary inputs. */
    uint32_t column;      /**< Text inputs: 1-based column (field number), 0 for binary inputs. */
    char message[120];    /**< NUL-terminated English detail naming the field, e.g. "tensor 7: shape[2] is -3". */
    uint32_t reserved[4]; /**< Zeroed by the library. Room for later fields without an ABI break. */
} aplan_format_error;

#ifdef __cplusplus
}
#endif

#endif /* APLAN_FORMATS_H */
