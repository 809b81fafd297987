"""aplan's exceptions: one hierarchy, a class per kind of failure, each carrying the C library's status.

Which class a status raises depends on what was being done (the *context* the extension passes):

=====================  =====================================================================================
``VerificationError``  ``aplan.verify`` found a plan breaking a rule (any status of the verifier)
``DoesNotFitError``    ``APLAN_E_CAPACITY_EXCEEDED``: no plan within the capacity
``TooLargeError``      ``APLAN_E_SIZE_OVERFLOW``, ``APLAN_E_TOO_MANY_BUFFERS``: past 2^64 - 1 bytes or the count
``UsageError``         an argument out of its domain (an unknown strategy, an ABI other than 32 or 64, ...)
``BadInputError``      the input cannot be a problem: a reader's ``APLAN_E_FORMAT_*`` status (which byte or line),
                       a validation status (which buffer), a model TFLM refuses
``Error``              anything else (a strategy that gave up, ...)
=====================  =====================================================================================
"""

from __future__ import annotations

import enum

from . import _aplan

#: Every ``aplan_status`` of <aplan/aplan.h>, by its C name without ``APLAN_`` (``Status.E_OVERLAP == 17``).
Status = enum.IntEnum("Status", [(name, value) for name, value, _ in _aplan.statuses()])
Status.__doc__ = "aplan_status: the C library's status codes (names without APLAN_)."
_TEXT = {value: text for _, value, text in _aplan.statuses()}


class Error(Exception):
    """A failure of aplan. ``str(e)`` is the message (which buffer, which byte or line of the input);
    ``e.status`` the C status (an ``aplan.Status``: ``int(e.status)`` and ``e.status.name``), ``e.status_text`` its
    ``aplan_status_str``."""

    def __init__(self, message: str, status: int = 0) -> None:
        super().__init__(message)
        self.message = message
        try:
            self.status = Status(status)
        except ValueError:  # a code newer than this package
            self.status = status  # type: ignore[assignment]
        self.status_text = _TEXT.get(int(status), "unknown status")


class BadInputError(Error, ValueError):
    """The input is not a valid problem or model: the message names the buffer, or the byte / line of the file."""


class DoesNotFitError(Error):
    """No plan fits the capacity. ``e.plan`` is the best plan found above it (``None`` when there is none)."""

    plan = None


class VerificationError(Error):
    """A plan breaks a rule of the verifier; the message is the verifier's report (aplan_report_format)."""


class TooLargeError(Error):
    """A size, sum or count passes what aplan handles (2^64 - 1 bytes, APLAN_MAX_BUFFERS buffers)."""


class UsageError(Error, ValueError):
    """An argument out of its domain: an unknown strategy or kernel set, an ABI other than 32 or 64."""


_TOO_LARGE = {Status.E_SIZE_OVERFLOW, Status.E_TOO_MANY_BUFFERS}
_USAGE = {Status.E_UNKNOWN_STRATEGY}


def error(status: int, message: str, context: str) -> Error:
    """The exception for a status met while doing ``context`` ("input", "verify", "plan", "usage", "tflm")."""
    if context == "verify":
        cls: type[Error] = VerificationError
    elif status == Status.E_CAPACITY_EXCEEDED:
        cls = DoesNotFitError
    elif status in _TOO_LARGE:
        cls = TooLargeError
    elif context == "usage" or status in _USAGE:
        cls = UsageError
    elif context in ("input", "tflm") and status != Status.E_OUT_OF_MEMORY:
        cls = BadInputError
    else:
        cls = Error
    return cls(message, status)


_aplan._set_error_factory(error)
