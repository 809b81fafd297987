/*
 * TensorFlow Lite Micro's whole arena, predicted from a .tflite model before it reaches a device (since 0.3.1).
 *
 * TFLM keeps everything a model needs in the one arena given to MicroAllocator / MicroInterpreter:
 *   - at its head, the planned section: the model's tensors and the kernels' scratch buffers
 *     (RequestScratchBufferInArena), placed by a memory planner;
 *   - at its tail, the persistent data: TFLM's own objects, per subgraph the evaluation tensors and the node and
 *     registration records, each operator's builtin options struct and its kernel's op data
 *     (AllocatePersistentBuffer: per-channel arrays, state), variable tensors, the scratch buffer handles, and the
 *     TfLiteTensor structs (with their quantization data) TFLM keeps for the model's inputs and outputs.
 * aplan_tflm_arena replays what AllocateTensors() does with a model, allocation by allocation with TFLM's
 * alignment and padding, from a table of what each kernel asks (one entry per kernel, naming the TFLM source it was
 * read from), and gives arena_used_bytes() and the smallest arena AllocateTensors() accepts. The kernels' scratch
 * requests come out as buffers (aplan_tflm_scratch), so that they are planned with the tensors, as TFLM plans them.
 *
 * What it models: tensorflow/tflite-micro at APLAN_TFLM_COMMIT with its reference kernels (tensorflow/lite/micro/
 * kernels and signal/micro/kernels), or with CMSIS-NN's (kernels/cmsis_nn, portable C or DSP; aplan_tflm_config),
 * built as TFLM builds its micro targets (TF_LITE_STATIC_MEMORY, no
 * compression), for 32-bit targets (Cortex-M, RISC-V 32: 4-byte pointers, 8-byte alignment of 64-bit types, as
 * arm-linux-gnueabihf) and 64-bit hosts (x86-64, AArch64 LP64). An operator the table does not know is named in the
 * result and counted as asking nothing: the figures are then lower bounds, and said to be.
 *
 * Device side like the reader: no allocation, no stdio; every byte of working memory comes from the caller.
 *
 * What a call costs (since 0.5.1): every loop of the model runs over something the file holds, each element once per
 * pass: operators, their input lists, tensors, subgraphs. A kernel's loop over a count the file only names (the
 * Signal kernels' persistent buffer per row of their input's outer dimensions) is one allocation of the checked
 * product (aplan_tflm_arena then fails with APLAN_E_SIZE_OVERFLOW naming the operator, its kernel and both factors
 * when it passes 2^64 - 1); custom options are read by key with a binary search, once per distinct options vector;
 * and each pass (the query's, the requests', an arena's) charges every look-up of the reader, every allocation it
 * records and every key compared to one work budget, APLAN_TFLM_WORK_PER_BYTE * model_size + APLAN_TFLM_WORK_BASE
 * units (a scratch request, which its caller plans as a buffer, costs 512 of them): a model whose tables
 * are shared so that a pass would need more (one tensor of rank L named K times in a CONCATENATION's inputs: K * L)
 * fails with APLAN_E_FORMAT_UNSUPPORTED, at the operator's entry, naming it. So a pass is O(model_size), its events
 * (16 bytes of scratch each) at most a quarter of the budget, and an arena's search O(events): the least multiple
 * of 16 in one pass over them, checked by a replay, then four replays for the 15 sizes below it.
 */
#ifndef APLAN_TFLM_H
#define APLAN_TFLM_H

#include "aplan.h"
#include "formats.h"
#include "tflite.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The TFLM commit whose allocator and reference kernels the model reproduces. */
#define APLAN_TFLM_COMMIT "90b983c2"

/** The arena model's work budget (since 0.5.1), in the units of APLAN_TFLITE_WORK_PER_BYTE (a table opened, a field
 *  looked up, a vector element read), plus 4 per allocation recorded (what each arena question replays), 512 more
 *  per scratch request (a buffer its caller plans) and 2 plus the key's length per key compared in custom options:
 *  a pass over a model of model_size bytes does at most APLAN_TFLM_WORK_PER_BYTE * model_size + APLAN_TFLM_WORK_BASE
 *  of them (and one look-up more, itself within the reader's budget); a model that needs more fails with
 *  APLAN_E_FORMAT_UNSUPPORTED, the byte of the operator's entry and the message "op N of subgraph S (KERNEL): arena
 *  model's work budget (32 per byte + 1048576) exceeded". Measured: the 16 shared real models use at most 0.36 units
 *  per byte (audio_preprocessor_int8), a FlatBuffer listing one ADD 240,000 times in 960 KB 21. */
#define APLAN_TFLM_WORK_PER_BYTE 32u
/** The budget's constant term. */
#define APLAN_TFLM_WORK_BASE (1u << 20)

/** aplan_tflm_config.abi: the target's pointer width in bits. */
#define APLAN_TFLM_ABI_32 32u
#define APLAN_TFLM_ABI_64 64u

/** aplan_tflm_config.planner: where the memory planner lives and what it needs. */
typedef enum aplan_tflm_planner {
    /** MicroInterpreter(model, resolver, arena, size): TFLM creates its GreedyMemoryPlanner in the arena's tail. */
    APLAN_TFLM_GREEDY_IN_ARENA = 0,
    /** MicroAllocator::Create(arena, size, &planner) with a GreedyMemoryPlanner that lives outside the arena. */
    APLAN_TFLM_GREEDY_OUTSIDE = 1,
    /** Another planner outside the arena (aplan_tflm::AplanMemoryPlanner, say) that needs planner_scratch bytes of
     *  the scratch TFLM's Init gives it. */
    APLAN_TFLM_OTHER_OUTSIDE = 2
} aplan_tflm_planner;

/** aplan_tflm_config.kernels: the kernel library TFLM is built with. */
typedef enum aplan_tflm_kernels {
    /** TFLM's reference kernels (tensorflow/lite/micro/kernels, signal/micro/kernels). */
    APLAN_TFLM_KERNELS_REFERENCE = 0,
    /** OPTIMIZED_KERNEL_DIR=cmsis_nn: CMSIS-NN (at the commit TFLM pins, 4ab83cc3) for the kernels it provides,
     *  the reference kernels for the rest. */
    APLAN_TFLM_KERNELS_CMSIS_NN = 1
} aplan_tflm_kernels;

/** aplan_tflm_config.isa: what CMSIS-NN is compiled for, which sizes some of its scratch buffers. */
typedef enum aplan_tflm_isa {
    /** Neither ARM_MATH_DSP nor ARM_MATH_MVEI: portable C (a host, Cortex-M0/M0+/M3). */
    APLAN_TFLM_ISA_PORTABLE = 0,
    /** ARM_MATH_DSP without MVE (Cortex-M4, M7, M33; Armv7-A). Helium (MVE, Cortex-M55/M85) is not modelled. */
    APLAN_TFLM_ISA_DSP = 1
} aplan_tflm_isa;

/** How the model is run. Initialise with aplan_tflm_config_init. */
typedef struct aplan_tflm_config {
    uint32_t abi;             /**< APLAN_TFLM_ABI_32 (default) or APLAN_TFLM_ABI_64. */
    uint32_t planner;         /**< aplan_tflm_planner; APLAN_TFLM_GREEDY_IN_ARENA by default. */
    uint64_t planner_scratch; /**< APLAN_TFLM_OTHER_OUTSIDE: the bytes the planner's Init needs. */
    uint32_t kernels;         /**< aplan_tflm_kernels; APLAN_TFLM_KERNELS_REFERENCE by default. */
    uint32_t isa;             /**< aplan_tflm_isa, with CMSIS-NN; APLAN_TFLM_ISA_PORTABLE by default. */
    uint32_t reserved[2];     /**< Zero. Room for later fields without an ABI break. */
} aplan_tflm_config;

/** Defaults: 32-bit target, TFLM's own GreedyMemoryPlanner in the arena, reference kernels. NULL is ignored. O(1). */
APLAN_API void aplan_tflm_config_init(aplan_tflm_config *config);

/** One kernel scratch buffer request (RequestScratchBufferInArena), in TFLM's request order. */
typedef struct aplan_tflm_scratch {
    uint32_t subgraph; /**< The requesting operator's subgraph. */
    uint32_t op;       /**< Its index in that subgraph. */
    uint32_t index;    /**< The request's number among that operator's (0, 1, ...). */
    uint32_t reserved;
    aplan_buffer buffer; /**< Bytes as requested (TFLM rounds them up to 16 before planning, as it does tensors),
                              live at the operator's step in aplan_tflite_read's numbering: [s, s + 1). */
} aplan_tflm_scratch;

/** What one operator asks of the arena (an element of aplan_tflm_arena's per-operator output). */
typedef struct aplan_tflm_op_cost {
    uint32_t subgraph, op;   /**< Which operator. */
    uint64_t params;         /**< Bytes of its builtin options struct in the tail (with their padding). */
    uint64_t op_data;        /**< Bytes its kernel allocated in the tail, at Init and at Prepare (with padding). */
    uint64_t scratch;        /**< Bytes of its scratch requests (unrounded). */
    uint32_t scratch_requests; /**< How many. */
    bool known;              /**< The table has its kernel; false: counted as asking nothing. */
} aplan_tflm_op_cost;

/** TFLM's arena for one model and one plan (aplan_tflm_arena). */
typedef struct aplan_tflm_arena_info {
    uint64_t used;           /**< arena_used_bytes() after AllocateTensors(), for an arena whose end is 16-byte
                                  aligned: planned + persistent. */
    uint64_t smallest;       /**< The smallest arena size AllocateTensors() accepts (a 16-byte aligned start): the
                                  working peak (kernels' temporaries at Prepare, the planner's scratch while it
                                  plans) can exceed used. */
    uint64_t planned;        /**< The planned section, as given (the plan's arena). */
    uint64_t persistent;     /**< The tail: every part below, with TFLM's alignment padding. */
    uint64_t tflm_objects;   /**< Of which TFLM's own objects: its allocators, the planner when in the arena, the
                                  builtin data allocator, the subgraph records, the input/output pointer arrays. */
    uint64_t eval_tensors;   /**< TfLiteEvalTensor per tensor of every subgraph. */
    uint64_t nodes;          /**< NodeAndRegistration per operator. */
    uint64_t params;         /**< Builtin options structs. */
    uint64_t op_data;        /**< Kernels' persistent buffers (Init and Prepare). */
    uint64_t variables;      /**< Variable tensors' buffers. */
    uint64_t scratch_handles;/**< ScratchBufferHandle per scratch request. */
    uint64_t io_tensors;     /**< TfLiteTensor structs and quantization data of the inputs and outputs. */
    uint64_t scratch_bytes;  /**< Sum of the kernels' scratch requests (they are in planned, not in persistent). */
    uint32_t scratch_requests; /**< How many. */
    uint32_t unknown_ops;    /**< Operators whose kernel the table lacks: used, smallest and persistent are then
                                  lower bounds. */
    uint32_t first_unknown_subgraph, first_unknown_op; /**< The first of them (APLAN_TFLITE_NONE when none). */
    /** Since 0.5.1: operators whose kernel's Prepare returns an error for this model (aplan_tflm_refusal), so that
     *  AllocateTensors() fails whatever the arena: when non-zero no figure above is an arena TFLM reaches. */
    uint32_t refused_ops;
    uint32_t first_refused_subgraph, first_refused_op; /**< The first of them (APLAN_TFLITE_NONE when none). */
    /** Why the first is refused: APLAN_TFLM_REFUSAL_REASON(refusal) is an aplan_tflm_refusal,
     *  APLAN_TFLM_REFUSAL_TYPE_A and _B the TensorType codes the kernel rejected (input and weights for
     *  APLAN_TFLM_REFUSED_WEIGHTS; the tensor's type twice for APLAN_TFLM_REFUSED_TYPE). 0 when none. */
    uint32_t refusal;
    uint32_t reserved[1];    /**< Zeroed by the library. */
} aplan_tflm_arena_info;

/** Since 0.5.1: why TFLM's kernel refuses an operator in Prepare (aplan_tflm_arena_info.refusal). */
typedef enum aplan_tflm_refusal {
    APLAN_TFLM_REFUSED_NONE = 0,
    /** CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED: input and weights of types the kernel does not pair ("Hybrid
     *  models are not supported on TFLite Micro"): it takes float32 with float32, int8 with int8 or int4, int16 with
     *  int8 (DEPTHWISE_CONV_2D also any equal pair; the reference FULLY_CONNECTED checks float32, int8 and int16
     *  inputs only; CMSIS-NN's CONV_2D and FULLY_CONNECTED refuse any other input type too). */
    APLAN_TFLM_REFUSED_WEIGHTS = 1,
    /** DEQUANTIZE (input int8, int16 or uint8; output float32) and CONCATENATION (bool, float32, int8, int16, int32,
     *  int64): a tensor type the kernel does not support. */
    APLAN_TFLM_REFUSED_TYPE = 2
} aplan_tflm_refusal;
#define APLAN_TFLM_REFUSAL_REASON(refusal) ((refusal) & 0xffu)
#define APLAN_TFLM_REFUSAL_TYPE_A(refusal) (((refusal) >> 8) & 0xffu)
#define APLAN_TFLM_REFUSAL_TYPE_B(refusal) (((refusal) >> 16) & 0xffu)

/**
 * Scratch bytes aplan_tflm_scratch_requests, aplan_tflm_arena and aplan_tflm_two_arenas need for model (a record of
 * every allocation TFLM will make, 16 bytes each; 8 bytes per subgraph and per operator; a bit per tensor), and how
 * many scratch requests its kernels make. The size depends on the model and on config's abi, kernels and isa, not on
 * its planner or planner_scratch: one query serves every planner. No scratch: it reads the model as
 * aplan_tflite_operator and aplan_tflite_tensor do, one pass over its operators.
 * @return APLAN_OK; what aplan_tflite_query returns; APLAN_E_INVALID_ARG (a NULL argument, a config field out of
 *         its domain or reserved not zero); APLAN_E_FORMAT_UNSUPPORTED past the work budget
 *         (APLAN_TFLM_WORK_PER_BYTE). O(model_size).
 */
APLAN_API aplan_status aplan_tflm_query(const void *model, size_t model_size, const aplan_tflm_config *config,
                                        size_t *scratch_size, size_t *scratch_requests, aplan_format_error *error);

/**
 * The kernels' scratch requests as buffers, in TFLM's request order (operator by operator, subgraph 0 first), to be
 * planned with aplan_tflite_read's buffers (after them, as TFLM hands its planner tensors, then scratch buffers).
 * Each is live at the step its operator runs at: steps are aplan_tflite_steps' (the step of its first visit).
 * @param[in]  steps    the model's steps (aplan_tflite_steps), step_count of them.
 * @param[out] requests capacity entries; *count set to the number of requests (on APLAN_OK and
 *                      APLAN_E_OUTPUT_TOO_SMALL, when capacity is below it). On any other failure its contents
 *                      are unspecified.
 * @return APLAN_OK; APLAN_E_OUTPUT_TOO_SMALL; APLAN_E_SCRATCH_TOO_SMALL / _MISALIGNED; APLAN_E_INVALID_ARG (steps
 *         that name an operator the model lacks, or that leave out an operator of subgraph 0 or of another subgraph
 *         they run an operator of: "steps do not belong to this model: no step runs op N of subgraph S", checked
 *         after the scratch; every operator of a subgraph no step runs, one no operator calls, gets [0, 0)); what
 *         aplan_tflm_query returns. O(model_size).
 */
APLAN_API aplan_status aplan_tflm_scratch_requests(const void *model, size_t model_size,
                                                   const aplan_tflm_config *config, const aplan_tflite_step *steps,
                                                   size_t step_count, void *scratch, size_t scratch_size,
                                                   aplan_tflm_scratch *requests, size_t capacity, size_t *count,
                                                   aplan_format_error *error);

/**
 * TFLM's arena for model with a planned section of `planned` bytes: the tensors TFLM plans (ids, id_count of
 * them, as aplan_tflite_read gives them: an offline-planned variable tensor among them lives in the section, the
 * other variables in the tail) and every kernel scratch request.
 * @param[out] info     the figures (zeroed on failure).
 * @param[out] costs    optional (NULL with capacity 0): one entry per operator, subgraph 0 first; filled up to
 *                      capacity (the totals in info count every operator); unspecified on failure.
 * @return APLAN_OK; APLAN_E_SCRATCH_TOO_SMALL / _MISALIGNED; APLAN_E_SIZE_OVERFLOW when the arena passes 2^64 - 1
 *         (message "TFLM's arena for this model and plan passes 2^64 - 1 bytes", or, when one kernel's rows do by
 *         themselves, "TFLM's arena passes 2^64 - 1 bytes: op N of subgraph S (KERNEL) keeps R rows x B bytes");
 *         APLAN_E_INVALID_ARG (an id outside the model); what aplan_tflm_query returns. O(model_size): one pass
 *         over the model (aplan_tflm_record), then some eight over what it recorded (aplan_tflm_recorded_arena).
 */
APLAN_API aplan_status aplan_tflm_arena(const void *model, size_t model_size, const aplan_tflm_config *config,
                                        const aplan_tflite_id *ids, size_t id_count, uint64_t planned, void *scratch,
                                        size_t scratch_size, aplan_tflm_arena_info *info, aplan_tflm_op_cost *costs,
                                        size_t capacity, aplan_format_error *error);

/**
 * aplan_tflm_arena in two halves, for a caller that asks one model several questions (the aplan tool asks up to
 * four: TFLM's own planner, a plan embedded, compiled in, planned by the adapter) without walking the model for
 * each. Since 0.5.1.
 *
 * aplan_tflm_record walks the model once and leaves what AllocateTensors() would allocate in scratch
 * (aplan_tflm_query's scratch_size; config.planner and config.planner_scratch are not read: the recording serves
 * every planner). It fails as aplan_tflm_query does, and with APLAN_E_SCRATCH_TOO_SMALL / _MISALIGNED; a failure
 * leaves no recording (the next question fails). O(model_size).
 */
APLAN_API aplan_status aplan_tflm_record(const void *model, size_t model_size, const aplan_tflm_config *config,
                                         void *scratch, size_t scratch_size, aplan_format_error *error);

/**
 * TFLM's arena (as aplan_tflm_arena gives it for a config with this planner and planner_scratch) from a recording:
 * the planned section of `planned` bytes holding the tensors ids (id_count of them) and every scratch request.
 * Reads the scratch only (the model may be gone) and writes into it (the ids' bits): one question at a time per
 * recording; any number of them, until the caller reuses the scratch.
 * @return APLAN_OK; APLAN_E_INVALID_ARG (scratch holding no recording: "scratch holds no recording
 *         (aplan_tflm_record did not succeed on it)"; a planner out of its domain; a NULL info, or ids or costs
 *         NULL with a count; an id outside the model); APLAN_E_SIZE_OVERFLOW as aplan_tflm_arena. O(events).
 */
APLAN_API aplan_status aplan_tflm_recorded_arena(void *scratch, aplan_tflm_planner planner, uint64_t planner_scratch,
                                                 const aplan_tflite_id *ids, size_t id_count, uint64_t planned,
                                                 aplan_tflm_arena_info *info, aplan_tflm_op_cost *costs,
                                                 size_t capacity, aplan_format_error *error);

/**
 * TFLM's two arenas for one model and one plan (aplan_tflm_two_arenas; since 0.4).
 *
 * MicroAllocator::Create(persistent_arena, persistent_size, non_persistent_arena, non_persistent_size) splits the
 * arena between two memories: everything that lives as long as the interpreter goes to the persistent arena
 * (TFLM's allocator objects, the planner object when TFLM creates it, the evaluation tensors, node records, builtin
 * options, the kernels' op data, variable tensors, scratch buffer handles, the inputs' and outputs' TfLiteTensors);
 * everything else to the non-persistent one (the scratch request array and the kernels' temporaries while they
 * prepare, the AllocationInfo arrays and the planner's working space while planning, then the planned section:
 * tensors and kernel scratch buffers). Each arena is filled from one end and checked only against its own other
 * end, so neither figure depends on the other arena's size. Both figures are for arenas whose start is 16-aligned
 * (alignas(16)).
 */
typedef struct aplan_tflm_two_arena_info {
    uint64_t used;           /**< arena_used_bytes() after AllocateTensors(): persistent + non_persistent. */
    uint64_t planned;        /**< The planned section, as given. */
    uint64_t persistent;     /**< The persistent arena's used bytes (GetPersistentUsedBytes()): the parts below
                                  with TFLM's padding. The same for every persistent size that works (its end is
                                  aligned down to 16 before use). */
    uint64_t persistent_smallest; /**< The smallest persistent arena AllocateTensors() and Invoke() accept:
                                  persistent rounded up to 16. */
    uint64_t non_persistent; /**< The non-persistent arena's used bytes after AllocateTensors(): the planned
                                  section. */
    uint64_t non_persistent_smallest; /**< The smallest non-persistent arena AllocateTensors() accepts: the largest
                                  of planned, working and planner_end. */
    uint64_t working;        /**< The largest extent of the scratch request array and the temporaries (kernels'
                                  Prepare, planning's AllocationInfo arrays) from the non-persistent arena's start. */
    uint64_t planner_end;    /**< Where the planner's working space must end: the temporaries' end aligned up to 16
                                  plus what the planner needs (TFLM's greedy planner: 40 bytes per buffer;
                                  APLAN_TFLM_OTHER_OUTSIDE: config.planner_scratch), aligned up to 16. */
    uint64_t tflm_objects;   /**< Persistent: TFLM's own objects: the two allocator objects, the planner when TFLM
                                  creates it, the MicroAllocator, the builtin data allocator, the subgraph records,
                                  the input/output pointer arrays. */
    uint64_t eval_tensors;   /**< Persistent: TfLiteEvalTensor per tensor of every subgraph. */
    uint64_t nodes;          /**< Persistent: NodeAndRegistration per operator. */
    uint64_t params;         /**< Persistent: builtin options structs. */
    uint64_t op_data;        /**< Persistent: kernels' persistent buffers (Init and Prepare). */
    uint64_t variables;      /**< Persistent: variable tensors' buffers (those the plan does not hold). */
    uint64_t scratch_handles;/**< Persistent: ScratchBufferHandle per scratch request. */
    uint64_t io_tensors;     /**< Persistent: TfLiteTensor structs and quantization data of the inputs and
                                  outputs. */
    uint64_t scratch_bytes;  /**< Sum of the kernels' scratch requests (in planned). */
    uint32_t scratch_requests; /**< How many. */
    uint32_t unknown_ops;    /**< Operators whose kernel the table lacks: every figure is then a lower bound. */
    uint32_t first_unknown_subgraph, first_unknown_op; /**< The first of them (APLAN_TFLITE_NONE when none). */
    /** Since 0.5.1, as in aplan_tflm_arena_info: operators whose kernel's Prepare fails, the first, and why (in
     *  the four words that were reserved: the struct keeps its size). */
    uint32_t refused_ops;
    uint32_t first_refused_subgraph, first_refused_op;
    uint32_t refusal;
} aplan_tflm_two_arena_info;

/**
 * TFLM's two arenas (aplan_tflm_two_arena_info) for model with a planned section of `planned` bytes, the tensors
 * TFLM plans being ids (id_count of them), as for aplan_tflm_arena, with the same scratch (aplan_tflm_query's
 * scratch_size). config.planner says where the planner object lives: APLAN_TFLM_GREEDY_IN_ARENA is what TFLM's
 * two-arena Create does (at APLAN_TFLM_COMMIT it takes a MemoryPlannerType, not a planner object, and creates
 * the GreedyMemoryPlanner in the persistent arena); APLAN_TFLM_GREEDY_OUTSIDE and APLAN_TFLM_OTHER_OUTSIDE
 * describe a planner object of the caller's handed to MicroAllocator's two-allocator constructor, which TFLM keeps
 * protected (a subclass reaches it; see docs/tflm.md, "Several memories"). Since 0.4.
 * @param[out] info the figures (zeroed on failure).
 * @return APLAN_OK; APLAN_E_SCRATCH_TOO_SMALL / _MISALIGNED; APLAN_E_SIZE_OVERFLOW when a figure passes 2^64 - 1;
 *         APLAN_E_INVALID_ARG (a NULL info, an id outside the model); what aplan_tflm_query returns.
 *         O(model_size).
 */
APLAN_API aplan_status aplan_tflm_two_arenas(const void *model, size_t model_size, const aplan_tflm_config *config,
                                             const aplan_tflite_id *ids, size_t id_count, uint64_t planned,
                                             void *scratch, size_t scratch_size, aplan_tflm_two_arena_info *info,
                                             aplan_format_error *error);

/**
 * TFLM's two arenas (as aplan_tflm_two_arenas gives them for a config with this planner and planner_scratch) from a
 * recording (aplan_tflm_record), as aplan_tflm_recorded_arena gives one arena; the same recording answers both.
 * Since 0.5.1.
 * @return APLAN_OK; APLAN_E_INVALID_ARG as aplan_tflm_recorded_arena; APLAN_E_SIZE_OVERFLOW as
 *         aplan_tflm_two_arenas. O(events).
 */
APLAN_API aplan_status aplan_tflm_recorded_two_arenas(void *scratch, aplan_tflm_planner planner,
                                                      uint64_t planner_scratch, const aplan_tflite_id *ids,
                                                      size_t id_count, uint64_t planned,
                                                      aplan_tflm_two_arena_info *info, aplan_format_error *error);

/**
 * The name of the first operator the table lacks, from info (the builtin's name or the custom code, in the model),
 * or {NULL, 0} when it knows them all. O(1) past aplan_tflite_operator.
 */
APLAN_API aplan_tflite_text aplan_tflm_unknown_name(const void *model, size_t model_size,
                                                    const aplan_tflm_arena_info *info);

#ifdef __cplusplus
}
#endif

#endif /* APLAN_TFLM_H */
