"""Logging: every line has its time, level and logger, and the encounter and
command it concerns when there is one; as text, or one JSON object a line.

The encounter and command ids come from context variables set where a socket
joins and where a command is handled (server/connection.py), so a line logged
anywhere below them (the store, a rule's bug) names them without every call
passing them along.
"""

import contextvars
import json
import logging
import re
import sys
import time

encounter_id: contextvars.ContextVar[str] = contextvars.ContextVar("fray_encounter", default="")
command_id: contextvars.ContextVar[str] = contextvars.ContextVar("fray_command", default="")


TOKEN = re.compile(r"(token=)[^&\s\"]+")


def socket_line(record: logging.LogRecord) -> bool:
    """uvicorn's own lines about each websocket: access-log lines, shown only with --access-log."""
    msg = record.msg if isinstance(record.msg, str) else ""
    return msg.startswith('%s - "WebSocket %s"') or msg in ("connection open", "connection closed")


class Context(logging.Filter):
    """Adds the encounter and command ids, hides invite tokens (they are
    passwords; uvicorn logs paths with their query), and keeps uvicorn's
    per-websocket lines for the access log."""

    def __init__(self, access: bool = False) -> None:
        super().__init__()
        self.access = access

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith(("uvicorn", "websockets")):
            if not self.access and socket_line(record):
                return False
            if record.args:
                record.args = tuple(TOKEN.sub(r"\1***", a) if isinstance(a, str) else a for a in record.args)
        if not hasattr(record, "encounter"):
            record.encounter = encounter_id.get()
        if not hasattr(record, "command"):
            record.command = command_id.get()
        return True


def timestamp(record: logging.LogRecord) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z"


class TextFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = f"{timestamp(record)} {record.levelname:<7} {record.name}: {record.getMessage()}"
        ids = " ".join(f"{k}={v}" for k in ("encounter", "command") if (v := getattr(record, k, "")))
        if ids:
            line += f" [{ids}]"
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out = {"time": timestamp(record), "level": record.levelname.lower(), "logger": record.name, "message": record.getMessage()}
        for k in ("encounter", "command"):
            if v := getattr(record, k, ""):
                out[k] = v
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def configure(level: str = "info", fmt: str = "text", access: bool = False) -> None:
    """Fray's and uvicorn's loggers, to stderr. uvicorn is then run with
    log_config=None so that it keeps this configuration."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    handler.addFilter(Context(access))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers[:] = []
        logger.propagate = True
