"""aplan from Python: plan tensor arenas, check plans, and size TFLite Micro's arena, with aplan's C library.

The figures are the C library's (the extension ``aplan._aplan`` binds <aplan/*.h>) and the same as the ``aplan``
tool's for the same input and settings. Sizes and offsets are bytes; lifetimes are half-open steps ``[lower,
upper)``. See docs/python.md.

>>> import aplan
>>> p = aplan.Problem(sizes=[1024, 2048, 1024], lowers=[0, 1, 2], uppers=[2, 3, 4])
>>> plan = aplan.plan(p, "greedy_by_size")
>>> plan.offsets, plan.arena_size, plan.outcome
([2048, 0, 2048], 3072, 'optimal')
"""

from __future__ import annotations

import os
import re
import time
import warnings
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Sequence, Union

from . import _aplan
from ._errors import (BadInputError, DoesNotFitError, Error, Status, TooLargeError, UsageError,
                      VerificationError)

__all__ = [
    "__version__", "TFLM_COMMIT", "Status", "Error", "BadInputError", "DoesNotFitError", "VerificationError",
    "TooLargeError", "UsageError", "StrategyInfo", "Problem", "Model", "Row", "Plan", "OperatorCost", "TflmArena",
    "strategies", "load", "lower_bound", "verify", "plan", "tflm_arena", "embed", "EXAMPLE", "Target", "targets",
]

#: The C library's version, "MAJOR.MINOR.PATCH" (aplan_version()).
__version__: str = _aplan.version()
#: The tflite-micro commit whose allocator and kernels tflm_arena reproduces (APLAN_TFLM_COMMIT).
TFLM_COMMIT: str = _aplan.TFLM_COMMIT

_OUTCOMES = {1: "plan", 2: "optimal", 3: "fits", 4: "best_found", 5: "infeasible"}
_KERNELS = {"reference": _aplan.KERNELS_REFERENCE, "cmsis-nn": _aplan.KERNELS_CMSIS_NN}
_ISAS = {"portable": _aplan.ISA_PORTABLE, "dsp": _aplan.ISA_DSP}


class StrategyInfo(NamedTuple):
    """A built-in strategy: its name, its one-line description, whether it searches (its plans can be proven
    optimal; it runs until its time limit or its proof), and whether ``strategy="auto"`` runs it."""

    name: str
    description: str
    searches: bool
    auto: bool


def strategies() -> List[StrategyInfo]:
    """The strategies this build of the library holds, in registry order (as ``aplan list`` prints them)."""
    return [StrategyInfo(*row) for row in _aplan.strategies()]


def _flags(round_sizes: bool, allow_fixed_alias: bool) -> int:
    return (_aplan.ROUND_SIZES if round_sizes else 0) | (_aplan.ALLOW_FIXED_ALIAS if allow_fixed_alias else 0)


def _check_capacity(capacity: Optional[int]) -> Optional[int]:
    if capacity is not None and (not isinstance(capacity, int) or capacity < 0 or capacity >= 1 << 64):
        raise UsageError(f"capacity is {capacity!r}: bytes in 0 .. 2^64 - 1, or None for no limit",
                         Status.E_INVALID_ARG)
    return capacity


class Problem:
    """Buffers to place in one arena: each a size in bytes, a lifetime ``[lower, upper)`` in steps, an alignment
    in bytes (None: the problem's ``alignment``) and a fixed offset in bytes (None: the strategy chooses).

    ``alignment`` is the default alignment (a power of two), ``capacity`` the most bytes the arena may have (None:
    no limit), ``round_sizes`` rounds every size up to its alignment before planning (TFLM does, to 16), and
    ``allow_fixed_alias`` lets two fixed buffers share bytes (offline plans that alias on purpose). ``ids`` names
    the buffers in messages and ``Plan.by_id`` (default "0", "1", ...).

    Raises BadInputError naming the buffer when the problem is invalid (aplan_problem_validate: an alignment not a
    power of two, lower above upper, a misaligned fixed offset; TooLargeError for a size past 2^64 - 1), TypeError
    for a value that is not an int. O(n).
    """

    def __init__(self, sizes: Sequence[int], lowers: Sequence[int], uppers: Sequence[int],
                 alignments: Optional[Sequence[Optional[int]]] = None,
                 offsets: Optional[Sequence[Optional[int]]] = None, *, alignment: int = 1,
                 capacity: Optional[int] = None, round_sizes: bool = False, allow_fixed_alias: bool = False,
                 ids: Optional[Sequence[str]] = None) -> None:
        self._init(_aplan.pack_buffers(sizes, lowers, uppers, alignments, offsets), ids, alignment, capacity,
                   round_sizes, allow_fixed_alias)

    def _init(self, buffers: bytes, ids: Optional[Sequence[str]], alignment: int, capacity: Optional[int],
              round_sizes: bool, allow_fixed_alias: bool) -> None:
        self._buffers = buffers
        self._columns: Optional[tuple] = None
        self.alignment = alignment
        self.capacity = _check_capacity(capacity)
        self.round_sizes = bool(round_sizes)
        self.allow_fixed_alias = bool(allow_fixed_alias)
        self._flags = _flags(round_sizes, allow_fixed_alias)
        self._ids = list(ids) if ids is not None else None
        if self._ids is not None and len(self._ids) != len(self):
            raise UsageError(f"ids has {len(self._ids)} entries and the problem {len(self)} buffers: one each",
                             Status.E_INVALID_ARG)
        if not isinstance(alignment, int) or alignment < 0 or alignment >= 1 << 64:
            raise UsageError(f"alignment is {alignment!r}: a power of two in bytes", Status.E_INVALID_ARG)
        _aplan.validate(buffers, alignment, None, self._flags, self._ids)

    @classmethod
    def from_csv(cls, text: Union[str, bytes], *, alignment: int = 1, capacity: Optional[int] = None,
                 round_sizes: bool = False, allow_fixed_alias: bool = False, name: str = "<csv>") -> "Problem":
        """A problem from a CSV table in MiniMalloc's format, as the ``aplan`` tool reads one (<aplan/csv.h>:
        columns id, lower, upper (or start, end), size, and optionally alignment, offset). BadInputError names the
        line and column: ``"<csv>:3:4: ..."`` (``name`` stands for the file). O(length)."""
        data = text.encode() if isinstance(text, str) else bytes(text)
        buffers, ids, lines, columns = _aplan.csv_parse(data, name)
        p = cls.__new__(cls)
        p.lines = lines
        p.name = name
        p._source = data  # the table as given: aplan.plan reads it as the tool reads the file
        p._init(buffers, ids, alignment, capacity, round_sizes, allow_fixed_alias)
        return p

    def __len__(self) -> int:
        return len(self._buffers) // _BUFFER_BYTES

    def _column(self, k: int) -> List[Any]:
        if self._columns is None:
            self._columns = _aplan.unpack_buffers(self._buffers)
        return list(self._columns[k])

    @property
    def ids(self) -> List[str]:
        """The buffers' names (a CSV's id column, a model's ``s<subgraph>t<tensor>``, else "0", "1", ...)."""
        return list(self._ids) if self._ids is not None else [str(i) for i in range(len(self))]

    @property
    def sizes(self) -> List[int]:
        """Bytes, as given (before any rounding)."""
        return self._column(0)

    @property
    def lowers(self) -> List[int]:
        """First live step of each buffer."""
        return self._column(1)

    @property
    def uppers(self) -> List[int]:
        """First step at which each buffer is no longer live."""
        return self._column(2)

    @property
    def alignments(self) -> List[Optional[int]]:
        """Each buffer's alignment in bytes, None for the problem's."""
        return self._column(3)

    @property
    def offsets(self) -> List[Optional[int]]:
        """Each buffer's fixed offset in bytes, None when the strategy chooses."""
        return self._column(4)

    def to_csv(self, offsets: Optional[Sequence[Optional[int]]] = None) -> str:
        """The problem as a CSV table (id,lower,upper,size,alignment,offset), which ``aplan`` and
        ``Problem.from_csv`` read back; with ``offsets``, the plan in MiniMalloc's solution format instead (the
        offset column holds them), which ``aplan verify PROBLEM PLAN`` checks."""
        if offsets is None:
            return _aplan.buffers_csv(self._buffers, self._ids).decode()
        fixed = list(offsets)
        rows = ["id,lower,upper,size,alignment,offset"]
        for name, size, lower, upper, align, off in zip(self.ids, self.sizes, self.lowers, self.uppers,
                                                        self.alignments, fixed):
            rows.append(f"{name},{lower},{upper},{size},{-1 if align is None else align},"
                        f"{-1 if off is None else off}")
        return "\n".join(rows) + "\n"

    def __repr__(self) -> str:
        return (f"<aplan.{type(self).__name__} of {len(self)} buffers, alignment {self.alignment}, capacity "
                f"{self.capacity}, round_sizes={self.round_sizes}, allow_fixed_alias={self.allow_fixed_alias}>")


_BUFFER_BYTES = len(_aplan.pack_buffers([0], [0], [0], None, None))  # sizeof(aplan_buffer), as compiled


class Model(Problem):
    """A .tflite model as TFLite Micro plans it: its tensors (aplan_tflite_read), then its kernels' scratch
    requests (aplan_tflm_scratch_requests) for ``abi`` and ``kernels``, with TFLM's alignment of 16 and sizes
    rounded to it (and fixed buffers allowed to alias when the model carries an offline plan): the problem the
    ``aplan`` tool plans for the model. ``ids`` are ``s<subgraph>t<tensor>`` for tensors and
    ``s<subgraph>o<op>r<index>`` for scratch requests; ``tensor_count`` says where the scratch buffers start."""

    data: bytes
    name: str
    tensor_count: int
    abi: int
    kernels: str
    isa: str

    @classmethod
    def _read(cls, data: bytes, name: str, abi: int, kernels: str, isa: str) -> "Model":
        if abi not in (32, 64):
            raise UsageError(f"abi is {abi!r}: 32 or 64 (the target's pointer width in bits)", Status.E_INVALID_ARG)
        if kernels not in _KERNELS:
            raise UsageError(f"kernels is {kernels!r}: 'reference' or 'cmsis-nn'", Status.E_INVALID_ARG)
        if isa not in _ISAS:
            raise UsageError(f"isa is {isa!r}: 'portable' or 'dsp' (with kernels='cmsis-nn')", Status.E_INVALID_ARG)
        if len(data) == 0:
            raise BadInputError(f"{name}: empty file (0 bytes): not a .tflite model", Status.E_FORMAT_TRUNCATED)
        if len(data) < 8 or data[4:8] != b"TFL3":
            raise BadInputError(f"{name}: not a .tflite model (no \"TFL3\" at bytes 4..7)", Status.E_FORMAT_UNKNOWN)
        tensors, tflite_ids, texts, _ = _aplan.tflite_read(data, name)
        scratch, scratch_ids = _aplan.tflm_scratch(data, name, abi, _KERNELS[kernels],
                                                   _ISAS[isa] if kernels == "cmsis-nn" else 0)
        m = cls.__new__(cls)
        m.data, m.name, m.abi, m.kernels, m.isa = data, name, abi, kernels, isa
        m.tensor_count = len(texts)
        m._tensors, m._tflite_ids = tensors, tflite_ids
        m.has_offline_plan = any(o is not None for o in _aplan.unpack_buffers(tensors)[4])
        m._init(tensors + scratch, texts + scratch_ids, _aplan.TFLITE_ALIGNMENT, None, True, m.has_offline_plan)
        return m

    def with_config(self, abi: int = 32, kernels: str = "reference", isa: str = "portable") -> "Model":
        """This model for another ABI or kernel set (their scratch requests differ); self when they are its own."""
        if (abi, kernels, isa) == (self.abi, self.kernels, self.isa):
            return self
        return Model._read(self.data, self.name, abi, kernels, isa)

    def _tensors_problem(self) -> Problem:
        p = Problem.__new__(Problem)
        p._init(self._tensors, self.ids[:self.tensor_count], self.alignment, None, True, self.allow_fixed_alias)
        return p


ModelSource = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, Model]


def load(source: ModelSource, *, abi: int = 32, kernels: str = "reference", isa: str = "portable",
         name: Optional[str] = None) -> Model:
    """Read a .tflite model (a path, or its bytes) as TFLM plans it: see ``Model``. ``abi`` is the target's pointer
    width (32: Cortex-M, RISC-V 32; 64: a host), ``kernels`` "reference" or "cmsis-nn" (``isa`` "portable" or
    "dsp"). BadInputError names the byte of the file at fault; OSError when the file cannot be read. O(file)."""
    if isinstance(source, Model):
        return source.with_config(abi, kernels, isa)
    if isinstance(source, (bytes, bytearray, memoryview)):
        return Model._read(bytes(source), name or "<bytes>", abi, kernels, isa)
    path = os.fspath(source)
    with open(path, "rb") as f:
        data = f.read()
    return Model._read(data, name or path, abi, kernels, isa)


def _as_problem(source: Union[Problem, ModelSource]) -> Problem:
    return source if isinstance(source, Problem) else load(source)


def lower_bound(problem: Union[Problem, ModelSource]) -> int:
    """A lower bound on the arena of every valid plan, in bytes (aplan_lower_bound): the largest of the live sizes'
    sum at one step, the largest buffer and the highest fixed end. A plan that reaches it is optimal. O(n log n)."""
    p = _as_problem(problem)
    return _aplan.lower_bound(p._buffers, p.alignment, None, p._flags)[0]


def verify(problem: Union[Problem, ModelSource], offsets: Sequence[Optional[int]],
           arena_size: Optional[int] = None) -> int:
    """Check a plan (one offset in bytes per buffer; None: unplaced) against every rule of aplan's verifier
    (aplan_verify): placed, aligned, fixed buffers in place, no two live buffers sharing bytes, within the arena
    (``arena_size``; None: the highest end) and the problem's capacity. Returns the arena size; raises
    VerificationError with the verifier's report (which buffers, steps and bytes) otherwise. O(n log n)."""
    p = _as_problem(problem)
    return _aplan.verify(p._buffers, p.alignment, p.capacity, p._flags, p._ids, offsets, arena_size)[0]


class Row(NamedTuple):
    """One strategy's run, as a row of the tool's table: ``arena`` and ``bound`` in bytes (arena None without a
    plan), ``outcome`` "optimal", "fits", "best_found", "infeasible" or "plan" (None without a plan), ``error``
    why there is none (or why it does not fit), ``verified`` whether the independent verifier accepted it,
    ``seconds`` its CPU-side wall time, ``nodes`` the search nodes it visited."""

    name: str
    arena: Optional[int]
    bound: int
    outcome: Optional[str]
    status: Status
    error: Optional[str]
    verified: bool
    nodes: int
    seconds: float
    offsets: Optional[List[int]]


class Plan:
    """A verified plan, from the session ``aplan plan`` runs for the same input and settings (the host layer's):
    ``offsets`` (bytes, by buffer index; ``by_id`` by buffer id), ``arena_size`` and ``lower_bound`` in bytes,
    ``outcome`` ("optimal" is proven), the ``strategy`` that made it, and ``rows``, every strategy's result (as the
    tool's table; with "auto" every run, where the tool's table keeps the best alone).

    ``json()``, ``svg()``, ``html()``, ``csv()``, ``c_header(name=...)`` and ``table()`` return what ``aplan plan -f
    json|svg|html|csv|c|table`` writes for it, byte for byte (JSON's and the table's times aside: each run's own)."""

    def __init__(self, problem: Problem, row: Row, rows: List[Row], bound: int, session: Any = None) -> None:
        self.problem = problem
        self.offsets: List[int] = list(row.offsets or [])
        self.arena_size: int = row.arena or 0
        self.lower_bound: int = bound
        self.outcome: str = row.outcome or "plan"
        self.strategy: str = row.name
        self.verified: bool = row.verified
        self.nodes: int = row.nodes
        self.rows: List[Row] = rows
        self._session = session
        self._tflm: Optional[Dict[str, Optional[TflmArena]]] = None
        self._tflm_why: Dict[str, Optional[str]] = {}
        self._tflm_setup: Optional[str] = None

    @property
    def by_id(self) -> Dict[str, int]:
        """Offsets by buffer id."""
        return dict(zip(self.problem.ids, self.offsets))

    @property
    def tflm(self) -> Dict[str, Optional["TflmArena"]]:
        """For a model: TFLM's whole arena for this plan's session, as ``aplan plan -f json``'s ``tflm`` has it, by
        way: "own_planner" (TFLM's GreedyMemoryPlanner in the arena), "embedded" (this plan as the model's offline
        plan), "compiled" (compiled in, the planner outside the arena) and "adapter"; None for a way whose figures
        cannot be had. Empty for another input. (``operators`` are not itemised here: ``tflm_arena`` does for the
        own planner.)"""
        if self._tflm is None:
            self._tflm, self._tflm_why = {}, {}
            d = _aplan.session_tflm(self._session) if self._session is not None else None
            if d is not None and isinstance(self.problem, Model):
                self._tflm_setup = d["setup"]
                for key in _SETUPS.values():
                    info = d[key]
                    if "used" not in info:
                        self._tflm[key], self._tflm_why[key] = None, info["why"]
                        continue
                    info["ops"] = []
                    info["first_unknown_subgraph"] = info.get("first_unknown_subgraph", 0)
                    way = [k for k, v in _SETUPS.items() if v == key][0]
                    tensors = info["tensors"] if info["tensors"] is not None else info["planned"]
                    self._tflm[key] = TflmArena(self.problem, info, tensors, way)
        return self._tflm

    @property
    def tflm_setup(self) -> Optional[str]:
        """For a model: the key of ``tflm`` the tool's verdict judges (JSON's ``tflm.setup``: TFLM's own planner
        when it fits the capacity or none was given, else the way that fits with the smallest arena); None
        otherwise."""
        _ = self.tflm
        return self._tflm_setup

    def _write(self, fmt: str, name: Optional[str] = None) -> str:
        if self._session is None:
            raise UsageError("this plan has no session to write", Status.E_INVALID_ARG)
        return _aplan.session_write(self._session, fmt, name)

    def json(self) -> str:
        """``aplan plan -f json``: every strategy's result and every buffer (sizes and offsets in bytes, times in
        milliseconds)."""
        return self._write("json")

    def svg(self) -> str:
        """``aplan plan -f svg``: the plan drawn, steps across, bytes up (or, when none fits, the smallest with its
        overflow)."""
        return self._write("svg")

    def html(self) -> str:
        """``aplan plan -f html``: a page with the table and every plan drawn."""
        return self._write("html")

    def csv(self) -> str:
        """``aplan plan -f csv``: the plan as MiniMalloc's CSV, the input's columns and the offset in bytes.
        DoesNotFitError when no plan fits the capacity (the tool writes none)."""
        return self._write("csv")

    def c_header(self, name: str = "aplan") -> str:
        """``aplan plan -f c --name NAME``: the plan as a C header whose identifiers start with ``name`` (macros
        upper-cased): offsets and the arena in bytes, and TFLM's BufferPlan. UsageError when ``name`` is not a C
        identifier; DoesNotFitError when no plan fits the capacity (the tool writes none)."""
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise UsageError(f"name is {name!r}: a C identifier (a letter, then letters, digits, '_')",
                             Status.E_INVALID_ARG)
        return self._write("c", name)

    def table(self) -> str:
        """``aplan plan`` (-f table): the strategies compared, the verdict, and for a model how to use the plan."""
        return self._write("table")

    def __iter__(self) -> Iterator[int]:
        return iter(self.offsets)

    def __len__(self) -> int:
        return len(self.offsets)

    def __repr__(self) -> str:
        return (f"<aplan.Plan {self.strategy}: arena {self.arena_size} bytes, lower bound {self.lower_bound}, "
                f"{self.outcome}>")


def _select(strategy: str, problem: Problem) -> List[str]:
    """The strategies to run, as the tool's -s: a name, names joined by commas, "all" or "auto"."""
    names = [s.name for s in strategies()]
    if strategy in ("all", "auto"):
        # offline plans only an input whose every buffer is fixed, and there it is the answer (the tool's rule).
        offs = problem.offsets
        whole = "offline" in names and len(offs) > 0 and all(o is not None for o in offs)
        if strategy == "auto" and not whole:
            return list(_aplan.auto_strategies())
        return [n for n in names if (n == "offline") == whole]
    chosen = [n.strip() for n in strategy.split(",")]
    for n in chosen:
        if n not in names:
            raise UsageError(f"unknown strategy '{n}' (known: {', '.join(names)}, all, auto)",
                             Status.E_UNKNOWN_STRATEGY)
    return chosen


def _run(p: Problem, name: str, capacity: Optional[int], deadline: Optional[float],
         start: Optional[List[int]] = None) -> Row:
    r = _aplan.plan(p._buffers, p.alignment, capacity, p._flags, p._ids, name, deadline, start)
    planned = r["offsets"] is not None
    verified = False
    error = r["message"] or None
    if planned:
        try:  # the tool's independent check: a second call of the public verifier, without the capacity
            _aplan.verify(p._buffers, p.alignment, None, p._flags, p._ids, r["offsets"], r["arena"])
            verified = True
        except VerificationError as e:
            error = f"the verifier rejects it: {e}"
        if capacity is not None and r["arena"] > capacity:
            error = (f"needs {r['arena']} bytes, {r['arena'] - capacity} more than the capacity of {capacity} "
                     f"bytes")
            r["status"] = int(Status.E_CAPACITY_EXCEEDED)
    outcome = _OUTCOMES.get(r["outcome"]) if planned or r["outcome"] == 5 else None
    return Row(name, r["arena"] if planned else None, r["bound"], outcome, Status(r["status"]), error, verified,
               r["nodes"], r["seconds"], r["offsets"])


class _Example:
    """The built-in example (``aplan example``): a small network with TFLM's lifetimes."""

    def __repr__(self) -> str:
        return "aplan.EXAMPLE"


#: The built-in example network, as ``aplan example`` plans it: ``aplan.plan(aplan.EXAMPLE)``.
EXAMPLE = _Example()

_MAX_TIME_LIMIT_S = 1000000  # the tool's largest --time-limit (APLAN_HOST_MAX_TIME_LIMIT_S)


def _source(problem: Union[Problem, ModelSource, _Example]) -> tuple:
    """(Problem or None, the name and bytes the session reads, settings the Problem carries)."""
    if isinstance(problem, _Example):
        return None, "built-in example", None, {}
    if isinstance(problem, Model):
        return problem, problem.name, problem.data, {"abi": problem.abi, "kernels": problem.kernels,
                                                     "isa": problem.isa}
    if isinstance(problem, Problem):
        data = getattr(problem, "_source", None) or _aplan.buffers_csv(problem._buffers, problem._ids)
        # Only what differs from the tool's defaults for a CSV table (alignment 1, sizes as they are) is given, so
        # that the session says what the tool says for the same file.
        return problem, getattr(problem, "name", "<problem>"), data, {
            "alignment": problem.alignment if problem.alignment != 1 else None,
            "round_sizes": True if problem.round_sizes else None, "alias": problem.allow_fixed_alias,
            "capacity": problem.capacity}
    if isinstance(problem, (bytes, bytearray, memoryview)):
        data, name = bytes(problem), "<bytes>"
    else:
        name = os.fspath(problem)
        with open(name, "rb") as f:
            data = f.read()
    if len(data) >= 8 and data[4:8] == b"TFL3":
        return load(data, name=name), name, data, {}
    return Problem.from_csv(data, name=name), name, data, {}


def plan(problem: Union[Problem, ModelSource, _Example], strategy: str = "auto", *,
         time_limit: Optional[float] = 1.0, capacity: Optional[int] = None, target: Optional[str] = None,
         alignment: Optional[int] = None, abi: Optional[int] = None, kernels: Optional[str] = None) -> Plan:
    """Plan the problem as ``aplan plan`` does, by running its session (the host layer's): a Problem, a model or CSV
    table (a path, or its bytes; recognised by content as the tool does), a Model from ``load``, or ``EXAMPLE``.

    ``strategy``: a name of ``strategies()``, names joined by commas, "all" (every strategy) or "auto" (the fast
    strategies, then, when their best plan is above the lower bound, a search from it with ``exact``).
    ``time_limit``: seconds for the whole call (None: no limit), shared as the tool shares ``--time-limit``.
    ``capacity``: bytes the arena may have (default: the problem's, else the target's RAM); for a model, TFLM's
    whole arena (the tool's ``--capacity``), so the strategies get what it leaves after TFLM's persistent data.
    ``target``: a preset of ``targets()`` (``--target``); ``alignment`` in bytes (``--align``); for a model
    ``abi`` (32 or 64) and ``kernels`` ("reference" or "cmsis-nn") as ``--abi`` and ``--kernels``.

    The plan returned is the smallest verified one (the earliest strategy on a tie). Raises DoesNotFitError when
    none fits the capacity (``e.plan``: the smallest, if any), Error when no strategy planned, UsageError for an
    unknown strategy or target. The session runs with the GIL released; Ctrl-C raises KeyboardInterrupt within
    0.1 s and returns nothing.
    """
    p, name, data, given = _source(problem)
    if capacity is None:
        capacity = given.get("capacity")
    cap = _check_capacity(capacity)
    if time_limit is not None and (not isinstance(time_limit, (int, float)) or time_limit < 0
                                   or time_limit > _MAX_TIME_LIMIT_S):
        raise UsageError(f"time_limit is {time_limit!r}: seconds in 0 .. {_MAX_TIME_LIMIT_S}, or None for no "
                         f"limit", Status.E_INVALID_ARG)
    if p is not None:
        _select(strategy, p)  # an unknown name raises UsageError before anything runs
    if target is not None and target.lower() not in {t.name.lower() for t in targets()}:
        raise UsageError(f"unknown target '{target}' (see aplan.targets())", Status.E_INVALID_ARG)
    if alignment is None:
        alignment = given.get("alignment")
    abi = abi if abi is not None else given.get("abi")
    kernels = kernels if kernels is not None else given.get("kernels")
    if abi is not None and abi not in (32, 64):
        raise UsageError(f"abi is {abi!r}: 32 or 64 (the target's pointer width in bits)", Status.E_INVALID_ARG)
    if kernels is not None and kernels not in _KERNELS:
        raise UsageError(f"kernels is {kernels!r}: 'reference' or 'cmsis-nn'", Status.E_INVALID_ARG)
    if kernels == "cmsis-nn" and given.get("isa") == "dsp" and target is None:
        raise UsageError("a model loaded with isa='dsp' plans with a target whose CMSIS-NN is DSP (target=...): "
                         "without one the tool builds CMSIS-NN's portable C", Status.E_INVALID_ARG)
    limit_ns = None if time_limit is None else round(time_limit * 1e9)
    if time_limit is None:
        limit_ns = _MAX_TIME_LIMIT_S * 10**9
    session, d = _aplan.session(name, data, strategy, limit_ns, cap, alignment, given.get("round_sizes"),
                                bool(given.get("alias", False)), abi or 0,
                                _KERNELS[kernels] if kernels is not None else -1, target, True)
    if p is None:  # the example: its buffers as the session planned them
        p = Problem.__new__(Problem)
        p._init(d["buffers"], d["ids"], d["alignment"], None, d["round_sizes"], False)
    bound = d["bound"]
    rows = [Row(r["name"], r["arena"], bound, r["outcome"], Status(r["status"]), r["error"], r["verified"],
                r["nodes"], r["seconds"], r["offsets"]) for r in d["runs"]]
    cap = d["capacity"]
    if cap is not None and bound > cap:
        raise DoesNotFitError(f"no plan can fit: the lower bound is {bound} bytes, {bound - cap} more than the "
                              f"capacity of {cap} bytes", Status.E_CAPACITY_EXCEEDED)
    if d["smallest"] is None:
        reasons = "; ".join(f"{r.name}: {r.error}" for r in rows)
        status = rows[0].status if rows else Status.E_STRATEGY_FAILED
        raise _errors_for(status, f"no strategy planned the problem ({reasons})")
    best = rows[d["smallest"]]
    result = Plan(p, best, rows, bound, session)
    if d["best"] is None:
        e = DoesNotFitError(best.error or "no plan fits the capacity", Status.E_CAPACITY_EXCEEDED)
        e.plan = result
        raise e
    return result


def embed(model: ModelSource, plan: Optional["Plan"] = None, *, strategy: str = "auto",
          time_limit: Optional[float] = 1.0, force: bool = False, replan: bool = False, target: Optional[str] = None,
          abi: Optional[int] = None, kernels: Optional[str] = None) -> bytes:
    """The model (a path, bytes or a Model) with a plan as its TFLM offline plan (OfflineMemoryAllocation): the bytes
    ``aplan embed MODEL -o OUT`` writes with the same settings (the host layer's ``embed``).

    Without ``plan`` the tool's session plans it: ``strategy`` and ``time_limit`` (seconds for the whole call, None:
    no limit) as ``-s`` and ``--time-limit`` (default "auto"), and of the plans the one whose tensors leave TFLM the
    smallest section once it places the kernels' scratch around them. ``plan``: a Plan of ``aplan.plan`` on this
    model (same ``abi`` and ``kernels``), whose offsets are embedded. ``replan`` ignores an offline plan the model
    already has (``--replan``); ``force`` writes the plan even when TFLM's arena would grow with it (``--force``;
    a warning then); ``target``, ``abi``, ``kernels`` as ``plan`` takes them.

    Raises the tool's errors with its messages: BadInputError for a file that is not a .tflite model or one TFLM's
    embedding refuses, DoesNotFitError when TFLM's arena would be larger with the plan ("not written: with this plan
    embedded ...") or none fits, VerificationError for a plan TFLM cannot use, UsageError for bad settings. Runs
    with the GIL released; Ctrl-C raises KeyboardInterrupt."""
    if isinstance(model, Model):
        name, data = model.name, model.data
        abi = abi if abi is not None else model.abi
        kernels = kernels if kernels is not None else model.kernels
    elif isinstance(model, (bytes, bytearray, memoryview)):
        name, data = "<bytes>", bytes(model)
    else:
        name = os.fspath(model)
        with open(name, "rb") as f:
            data = f.read()
    if time_limit is not None and (not isinstance(time_limit, (int, float)) or time_limit < 0
                                   or time_limit > _MAX_TIME_LIMIT_S):
        raise UsageError(f"time_limit is {time_limit!r}: seconds in 0 .. {_MAX_TIME_LIMIT_S}, or None for no "
                         f"limit", Status.E_INVALID_ARG)
    if target is not None and target.lower() not in {t.name.lower() for t in targets()}:
        raise UsageError(f"unknown target '{target}' (see aplan.targets())", Status.E_INVALID_ARG)
    if abi is not None and abi not in (32, 64):
        raise UsageError(f"abi is {abi!r}: 32 or 64 (the target's pointer width in bits)", Status.E_INVALID_ARG)
    if kernels is not None and kernels not in _KERNELS:
        raise UsageError(f"kernels is {kernels!r}: 'reference' or 'cmsis-nn'", Status.E_INVALID_ARG)
    names = [s.name for s in strategies()]
    for n in ([] if strategy in ("all", "auto") else [n.strip() for n in strategy.split(",")]):
        if n not in names:
            raise UsageError(f"unknown strategy '{n}' (known: {', '.join(names)}, all, auto)",
                             Status.E_UNKNOWN_STRATEGY)
    if plan is not None and not isinstance(plan, Plan):
        raise TypeError(f"plan must be an aplan.Plan, not {type(plan).__name__}")
    limit_ns = _MAX_TIME_LIMIT_S * 10**9 if time_limit is None else round(time_limit * 1e9)
    out, report = _aplan.embed(name, data, strategy, limit_ns, abi or 0,
                               _KERNELS[kernels] if kernels is not None else -1, target, replan, force,
                               list(plan.offsets) if plan is not None else None,
                               plan.strategy if plan is not None else None)
    if report["grows"]:
        warnings.warn(f"with the plan embedded TFLM's arena grows from {report['used_before']} to "
                      f"{report['used_after']} bytes (force=True)", stacklevel=2)
    if report["replaced"]:
        warnings.warn(f"{name} already had an offline plan (OfflineMemoryAllocation); the bytes returned hold the "
                      f"new plan in its place", stacklevel=2)
    return out


class Target(NamedTuple):
    """A target preset, a row of ``aplan targets``: ``alignment`` and ``ram`` in bytes, the ``part`` it stands for,
    ``abi`` its pointer width in bits (TFLM's structs), ``cmsis_isa`` the instruction set CMSIS-NN is built for on it
    ("portable" or "dsp"; None when the model does not cover CMSIS-NN there, ``why_cmsis`` says why), the reasons
    for its alignment and RAM, and for a part of several memories its ``regions`` (name, size in bytes, alignment in
    bytes; fastest first; ``ram`` is then the largest) and where their sizes come from."""

    name: str
    alignment: int
    ram: int
    part: str
    abi: int
    cmsis_isa: Optional[str]
    why_cmsis: Optional[str]
    why_alignment: Optional[str]
    why_ram: Optional[str]
    regions: List[tuple]
    why_regions: Optional[str]


def targets() -> List[Target]:
    """The target presets ``plan(target=...)`` and ``tflm_arena(target=...)`` take, in the order ``aplan targets``
    lists them (src/host/targets.c)."""
    isas = {v: k for k, v in _ISAS.items()}
    return [Target(name, alignment, ram, part, abi, None if isa is None else isas.get(isa, str(isa)), why_cmsis,
                   why_alignment, why_ram, regions, why_regions)
            for (name, part, alignment, ram, abi, isa, why_cmsis, why_alignment, why_ram, regions, why_regions)
            in _aplan.targets()]


def _errors_for(status: Status, message: str) -> Error:
    from ._errors import error
    return error(int(status), message, "plan")


class OperatorCost(NamedTuple):
    """What one operator asks of TFLM's arena, bytes: its builtin options struct, its kernel's op data (Init and
    Prepare) and its scratch requests (how many), ``known`` False when the kernel table lacks it."""

    subgraph: int
    op: int
    name: Optional[str]
    params: int
    op_data: int
    scratch: int
    scratch_requests: int
    known: bool


_PARTS = ("tflm_objects", "eval_tensors", "nodes", "params", "op_data", "variables", "scratch_handles",
          "io_tensors")


class TflmArena:
    """TFLite Micro's whole arena for a model (aplan_tflm_arena), as ``aplan arena MODEL`` prints it, in bytes:

    ``used``: ``arena_used_bytes()`` after ``AllocateTensors()``; ``smallest``: the smallest arena
    ``AllocateTensors()`` accepts; ``planned``: the planned section (tensors and kernels' scratch, placed by
    TFLM's GreedyMemoryPlanner); ``planned_tensors``: the tensors alone; ``scratch``: the kernels' scratch
    requests' bytes (``scratch_requests`` of them); ``persistent``: the tail, whose ``parts`` are TFLM's objects,
    evaluation tensors, node records, builtin options, kernels' op data, variables, scratch handles and I/O tensors;
    ``operators``: per operator. ``unknown_operators`` counts operators the kernel table lacks (``first_unknown``
    names the first): then ``is_lower_bound`` is True and every figure is a lower bound. ``tflm_commit`` is the
    tflite-micro commit modelled."""

    def __init__(self, model: Model, info: Dict[str, Any], tensors: int, planner: str) -> None:
        self.model_name = model.name
        self.abi = model.abi
        self.kernels = model.kernels
        self.planner = planner
        self.tflm_commit = TFLM_COMMIT
        self.used: int = info["used"]
        self.smallest: int = info["smallest"]
        self.planned: int = info["planned"]
        self.planned_tensors: int = tensors
        self.persistent: int = info["persistent"]
        self.scratch: int = info["scratch_bytes"]
        self.scratch_requests: int = info["scratch_requests"]
        self.parts: Dict[str, int] = {k: info[k] for k in _PARTS}
        self.operators: List[OperatorCost] = [OperatorCost(*o) for o in info["ops"]]
        self.unknown_operators: int = info["unknown_ops"]
        self.first_unknown: Optional[Dict[str, Any]] = None
        if self.unknown_operators > 0:
            self.first_unknown = {"subgraph": info["first_unknown_subgraph"], "index": info["first_unknown_op"],
                                  "name": info["unknown_name"]}
        self.is_lower_bound: bool = self.unknown_operators > 0

    @property
    def kernels_scratch(self) -> int:
        """What the kernels' scratch adds to the planned tensors (negative when the planner packed the tensors
        tighter among it)."""
        return self.planned - self.planned_tensors

    def as_json(self) -> Dict[str, Any]:
        """The figures in the shape of ``aplan plan -f json``'s ``tflm.own_planner`` (first_unknown: subgraph,
        index and name only)."""
        return {"used": self.used, "smallest": self.smallest, "planned": self.planned,
                "planned_tensors": self.planned_tensors, "kernels_scratch": self.kernels_scratch,
                "persistent": self.persistent, "lower_bound_only": self.is_lower_bound, "parts": dict(self.parts),
                "scratch_requests": self.scratch_requests, "scratch_request_bytes": self.scratch,
                "unknown_operators": self.unknown_operators, "first_unknown": self.first_unknown}

    def __repr__(self) -> str:
        return (f"<aplan.TflmArena {self.model_name}: smallest {self.smallest}, used {self.used} = planned "
                f"{self.planned} + persistent {self.persistent} (tflite-micro {self.tflm_commit}, {self.kernels}, "
                f"{self.abi}-bit)>")


def _refusal(info: Dict[str, Any]) -> str:
    """The tool's words for a model whose kernel refuses it in Prepare (src/cli/tflm.c, refusal_text)."""
    why = info["refusal"] & 0xff
    a = _aplan.type_name((info["refusal"] >> 8) & 0xff) or "?"
    b = _aplan.type_name((info["refusal"] >> 16) & 0xff) or "?"
    if why == _aplan.REFUSED_WEIGHTS:
        what = (f"input {a} with weights {b} (a hybrid model: TFLM pairs float32 with float32, int8 with int8 or "
                f"int4, int16 with int8)")
    else:
        what = f"tensor type {a} (a type its kernel does not support)"
    more = ""
    if info["refused_ops"] > 1:
        n = info["refused_ops"] - 1
        more = f"; {n} more operator{'s' if n != 1 else ''} refused"
    return (f"TFLM refuses this model: {info['refused_name'] or '?'} (op {info['first_refused_op']} of subgraph "
            f"{info['first_refused_subgraph']}) rejects {what} in its Prepare, so AllocateTensors() fails whatever "
            f"the arena{more}")


_SETUPS = {"own": "own_planner", "embedded": "embedded", "compiled": "compiled", "adapter": "adapter"}


def _target_config(target: Optional[str], kernels: str, isa: str) -> tuple:
    """(abi, isa) for a target preset as the tool's --target sets them: its pointer width, and the instruction set
    CMSIS-NN is built for on it. UsageError for an unknown target, or CMSIS-NN on one the model does not cover."""
    found = [t for t in targets() if t.name.lower() == target.lower()] if target is not None else []
    if not found:
        raise UsageError(f"unknown target '{target}' (see aplan.targets())", Status.E_INVALID_ARG)
    t = found[0]
    if kernels == "cmsis-nn" and t.cmsis_isa is None:
        raise UsageError(f"kernels='cmsis-nn' on target '{t.name}': {t.why_cmsis}", Status.E_INVALID_ARG)
    return t.abi, t.cmsis_isa if kernels == "cmsis-nn" else isa


def tflm_arena(model: ModelSource, *, abi: int = 32, kernels: str = "reference", isa: str = "portable",
               target: Optional[str] = None, planner: str = "own", strategy: str = "auto",
               time_limit: Optional[float] = 1.0) -> TflmArena:
    """TFLite Micro's whole arena for a model (a path, bytes or a Model), in bytes.

    ``planner="own"``: exactly what ``aplan arena MODEL`` prints (and ``aplan plan -f json MODEL``'s
    ``tflm.own_planner``): the model planned by TFLM's own GreedyMemoryPlanner (greedy_by_size_tflm), the planner
    in the arena, for ``abi`` (32 or 64) and ``kernels``. ``"embedded"``, ``"compiled"`` and ``"adapter"``: the
    arena with aplan's best plan (``plan(model, strategy, time_limit=...)``, the tool's session) embedded in the
    model as its offline plan, compiled into the firmware as a C header (the planner outside the arena), or
    through aplan's adapter: ``aplan plan -f json``'s ``tflm.embedded``, ``tflm.compiled`` and ``tflm.adapter``;
    their ``operators`` list is empty (the tool itemises operators for TFLM's own planner alone). ``target``: a
    preset of ``targets()``, whose pointer width is the ABI and whose instruction set CMSIS-NN is built for.

    BadInputError when TFLM refuses the model (a kernel's Prepare fails whatever the arena) or the file is bad;
    Error when that setup's figures cannot be had (the tool's reason). O(model size) plus the planners' time."""
    if planner not in _SETUPS:
        raise UsageError(f"planner is {planner!r}: 'own', 'embedded', 'compiled' or 'adapter'", Status.E_INVALID_ARG)
    if target is not None:
        abi, isa = _target_config(target, kernels, isa)
    m = load(model, abi=abi, kernels=kernels, isa=isa)
    if planner != "own":
        p = plan(m, strategy, time_limit=time_limit, target=target)
        figures = p.tflm[_SETUPS[planner]]
        if figures is None:
            raise Error(f"{m.name}: TFLM's arena with {planner} cannot be had: {p._tflm_why[_SETUPS[planner]]}",
                        Status.E_STRATEGY_FAILED)
        return figures
    names = [s.name for s in strategies()]
    if "greedy_by_size_tflm" not in names:
        raise Error("TFLM's own planner is greedy_by_size_tflm, which this build leaves out",
                    Status.E_UNKNOWN_STRATEGY)
    section = _run(m, "greedy_by_size_tflm", None, None)
    if section.arena is None:
        raise _errors_for(section.status, f"{m.name}: TFLM's own planner (greedy_by_size_tflm): {section.error}")
    alone = _run(m._tensors_problem(), "greedy_by_size_tflm", None, None)
    info = _aplan.tflm_arena(m.data, m.name, m.abi, _KERNELS[m.kernels],
                             _ISAS[m.isa] if m.kernels == "cmsis-nn" else 0, _aplan.TFLM_GREEDY_IN_ARENA, 0,
                             m._tflite_ids, section.arena)
    if info["refused_ops"] > 0:
        raise BadInputError(f"{m.name}: {_refusal(info)}", Status.E_FORMAT_UNSUPPORTED)
    return TflmArena(m, info, alone.arena if alone.arena is not None else 0, planner)
