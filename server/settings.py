"""Every setting of `fray serve`, in one table: its flag, its environment
variable, its default and its check. argparse and docs/operations.md are both
read from here (tests/server/test_operations.py checks the docs' table names each one),
so a setting cannot exist in one and not the other.

A bad value, from a flag or the environment, is one line on stderr and exit
code 2 (`Parser.error`), never a traceback.
"""

import argparse
import ipaddress
import os
import pathlib
import re
import sys
import urllib.parse
from collections.abc import Callable
from typing import Any, NamedTuple, NoReturn

from ..rules import FIRST_KEPT_VERSION, RULES_VERSION
from .limits import Limits

LOG_LEVELS = ("debug", "info", "warning", "error", "critical")
LOG_FORMATS = ("text", "json")


class Setting(NamedTuple):
    flag: str  # '--port'; '' for a setting read from the environment only (a secret)
    env: str
    default: Any
    parse: Callable[[str], Any]  # the value from its text; ValueError with a sentence when bad
    help: str
    secret: bool = False  # never echoed back in an error
    multi: bool = False  # the flag repeats, the variable is comma-separated

    @property
    def dest(self) -> str:
        return (self.flag or "--" + self.env.lower().removeprefix("fray_")).lstrip("-").replace("-", "_")


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # argparse's usage-and-error is three lines; one is enough
        sys.stderr.write(f"{self.prog}: {message} (see {self.prog} --help)\n")
        sys.exit(2)


def bad(setting: Setting, raw: str, why: str) -> str:
    shown = "(hidden)" if setting.secret else repr(raw)
    where = " or ".join(x for x in (setting.flag, setting.env) if x)
    return f"{where} {shown}: {why}"


# -- checks: each turns text into a value or raises ValueError with a sentence --


def port(text: str) -> int:
    value = integer(text)
    if not 0 < value < 65536:
        raise ValueError("a port is 1 to 65535")
    return value


def integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError("not a whole number") from None


def positive_int(text: str) -> int:
    value = integer(text)
    if value < 1:
        raise ValueError("must be 1 or more")
    return value


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError("not a number") from None
    if not value > 0:
        raise ValueError("must be more than 0")
    return value


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError("not a number of seconds") from None
    if value < 0:
        raise ValueError("cannot be negative")
    return value


def flag(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off", ""):
        return False
    raise ValueError("say 1 or 0 (true/false, yes/no, on/off)")


def choice(*options: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if text.lower() not in options:
            raise ValueError(f"one of {', '.join(options)}")
        return text.lower()

    return parse


def tristate(value: str) -> bool | None:
    """1 or 0, or '' for 'ask'."""
    return None if not value.strip() else flag(value)


def duration(value: str) -> float | None:
    from .archive import parse_duration

    return parse_duration(value or "off")


def text(value: str) -> str:
    return value


def folder(value: str) -> pathlib.Path | None:
    return pathlib.Path(value).expanduser() if value else None


def redis_url(value: str) -> str:
    if value and urllib.parse.urlsplit(value).scheme not in ("redis", "rediss", "unix"):
        raise ValueError("a Redis URL starts with redis://, rediss:// or unix://")
    return value


def public_url(value: str) -> str:
    if not value:
        return ""
    parts = urllib.parse.urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ValueError("a public URL is http(s)://host[:port][/path], as players type it")
    return value.rstrip("/") + "/"


def origin(value: str) -> str:
    parts = urllib.parse.urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/"):
        raise ValueError("an origin is scheme://host[:port], with no path")
    return value.strip().rstrip("/")


HOST_NAME = re.compile(r"(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?")


def allowed_host(value: str) -> str:
    """A host name players reach the server by: a name, an IP address, '*.domain' (its subdomains) or '*' (any)."""
    host = value.strip().lower()
    if host == "*":
        return host
    try:
        ipaddress.ip_address(host.strip("[]"))
        return host
    except ValueError:
        pass
    if not HOST_NAME.fullmatch(host) or len(host) > 253:
        raise ValueError("a host is a name (table.example), an IP address, '*.example.org' or '*', with no scheme or port")
    return host


def networks(value: str) -> str:
    """'*', or comma-separated addresses and networks (checked here, used by server/forwarded.py)."""
    for item in filter(None, (v.strip() for v in value.split(","))):
        if item != "*":
            try:
                ipaddress.ip_network(item, strict=False)
            except ValueError:
                raise ValueError(f"{item!r} is not an IP address or network (or '*')") from None
    return value


def rules_version(value: str) -> int:
    version = integer(value)
    if not FIRST_KEPT_VERSION <= version <= RULES_VERSION:
        raise ValueError(f"this Fray knows rules versions {FIRST_KEPT_VERSION} to {RULES_VERSION}")
    return version


def secret(value: str) -> str:
    if value and len(value.encode()) < 16:
        raise ValueError("must be at least 16 bytes")
    return value


_limits = Limits()
SERVE: tuple[Setting, ...] = (
    Setting("--host", "FRAY_HOST", "127.0.0.1", text, "address to listen on; 0.0.0.0 for every interface (phones on the same Wi-Fi)"),
    Setting("--port", "FRAY_PORT", 8000, port, "port to listen on"),
    Setting(
        "--public-url",
        "FRAY_PUBLIC_URL",
        "",
        public_url,
        "the address players use, in every printed and generated link (default: the request's own address; at start, the LAN address when bound to 0.0.0.0)",
    ),
    Setting(
        "--forwarded-allow-ips", "FRAY_FORWARDED_ALLOW_IPS", "", networks, "proxies (addresses, networks or '*') whose X-Forwarded-Proto/Host/For are believed"
    ),
    Setting("--redis-url", "REDIS_URL", "", redis_url, "an external Redis instead of the embedded one"),
    Setting(
        "--redis-cluster",
        "FRAY_REDIS_CLUSTER",
        None,
        tristate,
        "REDIS_URL names a node of a Redis Cluster: 1, or 0 for one Redis (default: asked of the Redis with INFO cluster)",
    ),
    Setting("--redis-wait", "FRAY_REDIS_WAIT", 30.0, seconds, "at start, seconds to keep retrying a Redis that does not answer yet"),
    Setting("--data", "FRAY_DATA", None, folder, "folder for the embedded Redis (default: the user data folder)"),
    Setting("--appendfsync", "FRAY_APPENDFSYNC", "everysec", choice("always", "everysec", "no"), "embedded Redis durability: always, everysec or no"),
    Setting("--no-demo", "FRAY_NO_DEMO", False, flag, "do not create a demo fight at start"),
    Setting(
        "--allowed-hosts",
        "FRAY_ALLOWED_HOSTS",
        [],
        allowed_host,
        "another name players reach this server by (a Host it answers to, beside loopback's, the address it listens on and --public-url's)",
        multi=True,
    ),
    Setting("--origin", "FRAY_ORIGINS", [], origin, "another origin (scheme://host:port) whose pages may open websockets and send API requests", multi=True),
    Setting("--max-frame", "FRAY_MAX_FRAME", _limits.frame_bytes, positive_int, "largest websocket frame, bytes"),
    Setting("--max-body", "FRAY_MAX_BODY", _limits.body_bytes, positive_int, "largest HTTP request body, bytes"),
    Setting("--rate", "FRAY_RATE", _limits.rate, positive_float, "messages per second per link (its sockets share them)"),
    Setting("--burst", "FRAY_BURST", _limits.burst, positive_int, "messages a link may send at once"),
    Setting("--chat-rate", "FRAY_CHAT_RATE", _limits.chat_rate, positive_float, "chat lines per second per link (its sockets together), sustained"),
    Setting("--chat-burst", "FRAY_CHAT_BURST", _limits.chat_burst, positive_int, "chat lines a link may send at once"),
    Setting(
        "--request-timeout",
        "FRAY_REQUEST_TIMEOUT",
        _limits.request_seconds,
        positive_float,
        "seconds a connection has to send a request's head, then as many for its body; then it is closed (408 for a body)",
    ),
    Setting("--sockets-per-token", "FRAY_SOCKETS_PER_TOKEN", _limits.sockets_per_token, positive_int, "open websockets per invite link, per replica"),
    Setting("--rebuilds", "FRAY_REBUILDS", _limits.rebuilds, positive_int, "fights folded at once for replays, logs, dice checks and exports, per replica"),
    Setting("--retain-ended", "FRAY_RETAIN_ENDED", None, duration, "delete ended fights this long after they end, e.g. 30d, 12h, 90m (default: keep them)"),
    Setting("--archive-dir", "FRAY_ARCHIVE_DIR", None, folder, "export each ended fight here (a .jsonl file) before it is deleted"),
    Setting("--log-level", "FRAY_LOG_LEVEL", "info", choice(*LOG_LEVELS), "debug, info, warning, error or critical"),
    Setting("--log-format", "FRAY_LOG_FORMAT", "text", choice(*LOG_FORMATS), "text, or json: one JSON object a line"),
    Setting("--access-log", "FRAY_ACCESS_LOG", False, flag, "log every HTTP request and websocket opened"),
    Setting(
        "--rules-version",
        "FRAY_RULES_VERSION",
        RULES_VERSION,
        rules_version,
        "the newest rules version this replica folds and creates fights with; an older one runs it as the release before "
        "during a rolling upgrade (fights of newer rules are handed to other replicas, close code 4012)",
    ),
    Setting("--shutdown-timeout", "FRAY_SHUTDOWN_TIMEOUT", 10.0, seconds, "on SIGTERM, seconds to drain outboxes and close sockets (1012) before giving up"),
    Setting("", "FRAY_ADMIN_KEY", "", text, "key to create encounters (Authorization: Bearer KEY); without it creation is open on loopback only", secret=True),
    Setting(
        "", "FRAY_SECRET", "", secret, "signs invite links, 16 bytes or more, the same on every replica (default: generated once, kept in Redis)", secret=True
    ),
    Setting("", "FRAY_SNAPSHOT_EVERY", 500, positive_int, "events between snapshots of a fight's state (a cache)"),
)


def add_settings(parser: argparse.ArgumentParser, settings: tuple[Setting, ...], environ=os.environ) -> None:
    """Flags whose defaults come from the environment, checked now: a bad
    variable fails like a bad flag. Environment-only settings are checked too,
    and land in the namespace under their own name."""
    env_only = []
    for s in settings:
        raw = environ.get(s.env)
        try:
            if raw is None:
                default = s.default
            elif s.multi:
                default = [s.parse(v) for v in raw.split(",") if v.strip()]
            else:
                default = s.parse(raw)
        except ValueError as e:
            parser.error(bad(s, raw, str(e)))
        if not s.flag:
            env_only.append((s.dest, default))
            continue
        label = f"{s.help} ({s.env}; default {_shown(s.default)})"

        def check(value: str, s=s) -> Any:
            try:
                return s.parse(value)
            except ValueError as e:
                raise argparse.ArgumentTypeError(str(e)) from None

        if s.parse is flag:
            parser.add_argument(s.flag, action="store_true", default=default, help=label)
        elif s.multi:
            parser.add_argument(
                s.flag,
                action="append",
                type=check,
                default=list(default),
                metavar=s.env.removeprefix("FRAY_").removesuffix("S"),
                help=label + "; repeatable, comma-separated in the variable",
            )
        else:
            parser.add_argument(s.flag, type=check, default=default, metavar=s.env.removeprefix("FRAY_"), help=label)
    parser.set_defaults(**dict(env_only))
    if env_only:
        parser.epilog = (
            "Read from the environment only: " + "; ".join(f"{s.env}: {s.help}" for s in settings if not s.flag) + ". Every setting: docs/operations.md."
        )


def _shown(value: Any) -> str:
    if value in ("", None, []):
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)
