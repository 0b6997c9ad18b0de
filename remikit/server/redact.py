"""No seat token reaches a log, at any level.

A token travels in a WebSocket hello, and the WebSocket library logs every
frame it reads at ``debug`` (``< TEXT '{"type": "hello", "token": …}'``).
:func:`install` makes every log record of the process keep only the kind and
size of a data frame, and hide the value of any ``"token"`` written as JSON.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from websockets.frames import DATA_OPCODES, Frame

TOKEN = re.compile(r"""(["']token["']\s*:\s*["'])[^"']*""")


def _frame_text(frame: Frame) -> str:
    return f"{frame.opcode.name} [{len(frame.data)} bytes]"


def scrub(record: logging.LogRecord) -> None:
    """Drop the content of data frames from ``record`` and hide JSON token values."""
    args = record.args
    if isinstance(args, tuple) and any(isinstance(a, Frame) for a in args):
        record.args = tuple(
            _frame_text(a) if isinstance(a, Frame) and a.opcode in DATA_OPCODES else a for a in args
        )
    if "token" in str(record.msg) or (record.args and "token" in repr(record.args)):
        try:
            text = record.getMessage()
        except (TypeError, ValueError):  # a bad format: its arguments are not shown
            text = str(record.msg)
        record.msg = TOKEN.sub(r"\1…", text)
        record.args = None


def install() -> None:
    """Scrub every log record this process makes from now on (:func:`scrub`)."""
    make = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = make(*args, **kwargs)
        scrub(record)
        return record

    logging.setLogRecordFactory(factory)
