/* The problem model: initialisation, validation and the effective size and alignment of a buffer. */
#include "internal.h"

void aplan_problem_init(aplan_problem *problem, const aplan_buffer *buffers, size_t count) {
    if (problem == NULL) return; /* as every public init and free function: NULL is ignored */
    APLAN_MEMSET(problem, 0, sizeof *problem);
    problem->buffers = buffers;
    problem->count = count;
    problem->alignment = 1;
    problem->capacity = APLAN_UNLIMITED;
}

void aplan_problem_init32(aplan_problem *problem, const aplan_buffer32 *buffers, size_t count) {
    if (problem == NULL) return;
    aplan_problem_init(problem, NULL, count);
    problem->buffers32 = buffers;
    problem->flags = APLAN_BUFFERS32;
}

static bool is_pow2(uint64_t v) { return v != 0 && (v & (v - 1u)) == 0; }

uint64_t aplan_buffer_alignment(const aplan_problem *problem, size_t i) { return aplan__alignment_inline(problem, i); }

uint64_t aplan_buffer_size(const aplan_problem *problem, size_t i) { return aplan__size_inline(problem, i); }

aplan_buffer aplan_buffer_at(const aplan_problem *problem, size_t i) { return aplan__buffer(problem, i); }

bool aplan_buffers_conflict(const aplan_problem *problem, size_t i, size_t j) {
    return aplan__occupies(problem, i) && aplan__occupies(problem, j) &&
           aplan__lower(problem, i) < aplan__upper(problem, j) && aplan__lower(problem, j) < aplan__upper(problem, i);
}

aplan_status aplan_problem_validate(const aplan_problem *problem, aplan_report *report) {
    aplan_report scratch_report;
    if (report == NULL) report = &scratch_report;
    aplan_report_clear(report);
    /* buffers and buffers32 share their storage: either is NULL exactly when the other is */
    if (problem == NULL || (problem->buffers == NULL && problem->count != 0)) {
        report->rule = APLAN_E_INVALID_ARG;
        return APLAN_E_INVALID_ARG;
    }
    for (size_t k = 0; k < sizeof problem->reserved / sizeof problem->reserved[0]; k++) {
        const uint32_t known = APLAN_ROUND_SIZES | APLAN_ALLOW_FIXED_ALIAS | APLAN_BUFFERS32 | APLAN_LOW_MEMORY;
        if (problem->reserved[k] != 0 || (problem->flags & ~known) != 0) {
            report->rule = APLAN_E_INVALID_ARG;
            return APLAN_E_INVALID_ARG;
        }
    }
    if (problem->count > APLAN_MAX_BUFFERS) {
        aplan__report_value(report, APLAN_E_TOO_MANY_BUFFERS, APLAN_NO_BUFFER, problem->count, APLAN_MAX_BUFFERS);
        return APLAN_E_TOO_MANY_BUFFERS;
    }
    if (!is_pow2(problem->alignment)) {
        aplan__report_value(report, APLAN_E_BAD_ALIGNMENT, APLAN_NO_BUFFER, problem->alignment, 0);
        return APLAN_E_BAD_ALIGNMENT;
    }
    const uint64_t cap = problem->capacity;
    for (size_t i = 0; i < problem->count; i++) {
        const aplan_buffer b_at = aplan__buffer(problem, i), *b = &b_at;
        if (b->alignment != 0 && !is_pow2(b->alignment)) {
            aplan__report_value(report, APLAN_E_BAD_ALIGNMENT, i, b->alignment, 0);
            return APLAN_E_BAD_ALIGNMENT;
        }
        if (b->lower > b->upper) {
            aplan__report_buffer(report, APLAN_E_BAD_LIFETIME, i);
            report->step_lo = b->lower;
            report->step_hi = b->upper;
            return APLAN_E_BAD_LIFETIME;
        }
        const uint64_t align = aplan__alignment(problem, i);
        uint64_t size = b->size;
        if ((problem->flags & APLAN_ROUND_SIZES) != 0 && !aplan__align_up(b->size, align, &size)) {
            aplan__report_value(report, APLAN_E_SIZE_OVERFLOW, i, b->size, align);
            return APLAN_E_SIZE_OVERFLOW;
        }
        if (size > cap) {
            aplan__report_value(report, APLAN_E_CAPACITY_EXCEEDED, i, size, cap);
            return APLAN_E_CAPACITY_EXCEEDED;
        }
        if (b->offset == APLAN_NO_OFFSET) continue;
        if ((b->offset & (align - 1u)) != 0) {
            aplan__report_value(report, APLAN_E_MISALIGNED_OFFSET, i, b->offset, align);
            return APLAN_E_MISALIGNED_OFFSET;
        }
        uint64_t end;
        if (!aplan__add(b->offset, size, &end)) {
            aplan__report_value(report, APLAN_E_SIZE_OVERFLOW, i, b->offset, size);
            return APLAN_E_SIZE_OVERFLOW;
        }
        if (end > cap) {
            aplan__report_value(report, APLAN_E_CAPACITY_EXCEEDED, i, end, cap);
            return APLAN_E_CAPACITY_EXCEEDED;
        }
    }
    return APLAN_OK;
}
