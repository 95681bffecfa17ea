"""The generated sections of docs/protocol.md: message reference, error codes, transcript.

``python -m tools.docgen`` rewrites, in place, each section of docs/protocol.md between
``<!-- BEGIN GENERATED: name -->`` and ``<!-- END GENERATED: name -->``; everything
outside the markers is written by hand and left alone. ``tests/docs`` fails when a
section differs from what this module produces now.

- ``reference``: every client message, server message, director command and nested part,
  from the classes in ``protocol.messages`` (their docstrings are the reference text) with
  the examples of ``protocol.examples``.
- ``conventions`` and ``versioning``: from the module docstring of ``protocol.messages``.
- ``limits``: the server's limits and their defaults (``server.config.ServerConfig``).
- ``errors``: ``protocol.errors.ERROR_CODES``, the fatal ones marked.
- ``transcript``: ``tools.transcript``, a real hand played against a real server.
"""

from __future__ import annotations

import json
import re
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

import attrs

import protocol.messages as m
from protocol.codec import converter, encode, tag_of
from protocol.compiled import (
    field_since,
    least_of,
    optional_inner,
    since_of,
    tag_key,
    text_of,
    tuple_item,
)
from protocol.errors import ERROR_CODES, FATAL_CODES
from protocol.examples import CLIENT_EXAMPLES, COMMAND_EXAMPLES, SERVER_EXAMPLES
from protocol.schema import class_doc, field_docs

DOC = Path(__file__).resolve().parents[1] / "docs" / "protocol.md"
SECTIONS = ("conventions", "versioning", "limits", "errors", "transcript", "reference")
WIDTH = 88  # examples longer than this are shown indented

_BEGIN = "<!-- BEGIN GENERATED: {} -->"
_END = "<!-- END GENERATED: {} -->"

_CLIENT: tuple[type, ...] = tuple(m.CLIENT_TYPES.values())
_SERVER: tuple[type, ...] = tuple(m.SERVER_TYPES.values())
_COMMANDS: tuple[type, ...] = tuple(m.COMMAND_TYPES.values())
_MESSAGES = frozenset((*_CLIENT, *_SERVER, *_COMMANDS))

# Friendly names for the constrained string types of protocol.messages.
_TEXT_NAMES: list[tuple[Any, str]] = [
    (m.Card, 'card (`"As"`, `"Td"`)'),
    (m.Name, "string, 1-24 characters"),
    (m.Title, "string, 1-80 characters"),
    (m.Token, "string, 8-128 of `A-Z a-z 0-9 _ . ~ -`"),
    (m.Secret, "string, 1-128 characters"),
    (m.Nonce, "string, up to 64 characters"),
    (m.Reason, "string, 1-200 characters"),
    (m.Message, "string, 1-500 characters"),
    (m.ErrorCode, "string (an [error code](#error-codes))"),
    (m.Timestamp, "ISO 8601 time with offset"),
    (m.ServerText, "string"),
    (m.Digest, "64 lowercase hex digits"),
    (m.ClientSeedHex, "32 to 64 lowercase hex digits (16 to 32 bytes)"),
    (m.TournamentId, "string of `0-9 a-z`, 1-64 characters"),
]


# =====================================================================================
# Names, anchors, types
# =====================================================================================


def anchor(cl: type) -> str:
    """The HTML anchor of a class's entry in the reference."""
    if cl in _COMMANDS:
        return f"command-{tag_of(cl)}"
    if cl in _CLIENT:
        return f"client-{tag_of(cl)}"
    if cl in _SERVER:
        return f"server-{tag_of(cl)}"
    return f"part-{cl.__name__.lower()}"


def title(cl: type) -> str:
    if cl in _COMMANDS:
        return f"`{tag_of(cl)}`"
    if cl in _MESSAGES:
        return f"`{tag_of(cl)}`"
    return f"`{cl.__name__}`"


def type_name(typ: Any) -> str:
    """A field's type in words, with links to the parts it holds."""
    for known, name in _TEXT_NAMES:
        if typ == known:
            return name
    text = text_of(typ)
    if text is not None:
        return "string"
    if typ is bool:
        return "boolean"
    if typ is int:
        return "integer"
    least = least_of(typ)
    if least is not None:
        return f"integer from {least.min}"
    if typ is str:
        return "string"
    if get_origin(typ) is Literal:
        return "one of " + ", ".join(f'`"{v}"`' for v in get_args(typ))
    inner = optional_inner(typ)
    if inner is not None:
        return f"{type_name(inner)}, or null"
    item = tuple_item(typ)
    if item is not None:
        return f"array of {type_name(item)}"
    if typ == m.Command:
        return "a [director command](#director-commands) object"
    if attrs.has(typ):
        return f"[{typ.__name__}](#{anchor(typ)}) object"
    raise TypeError(f"no name for {typ!r}")


def parts(roots: tuple[type, ...] = (*_CLIENT, *_SERVER, *_COMMANDS)) -> list[type]:
    """Every nested object class (no "type") reachable from ``roots``, in the order the
    messages first use them."""
    seen: list[type] = []
    todo: list[type] = list(roots)
    done: set[type] = set()
    while todo:
        cl = todo.pop(0)
        if cl in done:
            continue
        done.add(cl)
        if cl not in _MESSAGES:
            seen.append(cl)
        for field in attrs.fields(attrs.resolve_types(cl)):
            todo.extend(_classes_in(field.type))
    return seen


def _classes_in(typ: Any) -> list[type]:
    if typ == m.Command or text_of(typ) is not None or get_origin(typ) is Literal:
        return []
    if least_of(typ) is not None:
        return []
    if isinstance(typ, type) and attrs.has(typ):
        return [typ]
    return [cl for arg in get_args(typ) if arg is not Ellipsis for cl in _classes_in(arg)]


_CLIENT_PARTS = frozenset(parts((*_CLIENT, *_COMMANDS)))
"""Parts a client sends (their defaulted fields may be left out)."""


# =====================================================================================
# Examples
# =====================================================================================


def pretty(value: Any, indent: int = 0) -> str:
    """JSON that reads well and is still JSON: one line if it fits in WIDTH; an object or
    array of short members filled over several lines; else one member per line."""
    flat = _flat(value)
    if indent + len(flat) <= WIDTH or not isinstance(value, dict | list) or not value:
        return flat
    if isinstance(value, dict):
        members = [f"{json.dumps(k)}:{_flat(v)}" for k, v in value.items()]
        open_, close = "{", "}"
    else:
        members = [_flat(v) for v in value]
        open_, close = "[", "]"
    if all(len(x) <= 40 for x in members):
        return _fill(members, open_, close, indent)
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {pretty(v, indent + 2)}" for k, v in value.items()]
    else:
        items = [f"{pad}{pretty(v, indent + 2)}" for v in value]
    return open_ + "\n" + ",\n".join(items) + "\n" + " " * indent + close


def _flat(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _fill(members: list[str], open_: str, close: str, indent: int) -> str:
    """Members packed into lines of at most WIDTH, continuation lines under the first."""
    lines: list[str] = []
    line = open_
    for i, member in enumerate(members):
        piece = member + ("," if i < len(members) - 1 else close)
        if len(line) > 1 and indent + len(line) + len(piece) > WIDTH:
            lines.append(line.rstrip())
            line = " " * (indent + 1)
        line += piece
    lines.append(line)
    return "\n".join(lines)


def example_line(msg: Any) -> str:
    """A message as a JSON block: the wire line, indented when it is long."""
    return pretty(json.loads(encode(msg, version=m.LATEST_VERSION)))


def _examples_of(cl: type) -> list[Any]:
    if cl in _COMMANDS:
        return [msg for msg in CLIENT_EXAMPLES
                if isinstance(msg, m.DirectorCommand) and type(msg.command) is cl]
    if cl is m.DirectorCommand:
        return [msg for msg in CLIENT_EXAMPLES if isinstance(msg, cl)][:1]
    pool = CLIENT_EXAMPLES if cl in _CLIENT else SERVER_EXAMPLES
    return [msg for msg in pool if type(msg) is cl][:1]


def _walk(value: Any) -> Iterator[Any]:
    yield value
    if isinstance(value, tuple):
        for item in value:
            yield from _walk(item)
    elif attrs.has(type(value)):
        for field in attrs.fields(type(value)):
            yield from _walk(getattr(value, field.name))


def part_example(cl: type) -> tuple[Any, Any] | None:
    """(the first example of a part, the message holding it), or None."""
    for msg in (*CLIENT_EXAMPLES, *SERVER_EXAMPLES, *COMMAND_EXAMPLES):
        for value in _walk(msg):
            if type(value) is cl:
                return value, msg
    return None


# =====================================================================================
# The sections
# =====================================================================================


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def entry(cl: type) -> list[str]:
    """One class in the reference: heading, description, fields, example."""
    heading = f"#### {title(cl)}"
    if since_of(cl) > 1:
        heading += f" (since version {since_of(cl)})"
    out = [f'<a id="{anchor(cl)}"></a>', "", heading, ""]
    doc = _rst_to_md(class_doc(cl))
    if doc:
        out += [doc, ""]
    docs = field_docs(cl)
    optional_ok = cl in _CLIENT or cl in _COMMANDS or cl in _CLIENT_PARTS
    rows = ["| field | type | meaning |", "|---|---|---|"]
    key = tag_key(cl)
    if key is not None:
        what = "director command" if cl in _COMMANDS else "message type"
        rows.append(f'| `{key}` | `"{tag_of(cl)}"` | the {what} |')
    for field in attrs.fields(attrs.resolve_types(cl)):
        typ = type_name(field.type)
        if field.name == "seq" and cl in _SERVER:
            typ = "integer"
        elif optional_ok and field.default is not attrs.NOTHING:
            typ += f" (optional, default `{json.dumps(field.default)}`)"
        if field_since(field) > 1:
            typ += f"; version {field_since(field)} only"
        meaning = _rst_to_md(docs.get(field.name, ""))
        rows.append(f"| `{field.name}` | {_cell(typ)} | {_cell(meaning)} |")
    out += rows
    out.append("")
    if cl in _MESSAGES:
        for msg in _examples_of(cl):
            out += ["```json", example_line(msg), "```", ""]
    else:
        found = part_example(cl)
        if found is not None:
            value, holder = found
            flat = json.dumps(converter.unstructure(value), separators=(",", ":"))
            where = f"[`{tag_of(type(holder))}`](#{anchor(type(holder))})"
            if len(flat) <= 200:
                out += [f"Example: `{flat}` (from the example of {where}).", ""]
            else:
                out += [f"Example: see the example of {where}.", ""]
    return out


def reference() -> str:
    out = [
        _para(
            "Generated from `protocol/messages.py` and `protocol/examples.py` by "
            "`python -m tools.docgen`. Examples are shown indented when they are long; "
            "on the wire every message is one line. In a client message a field marked "
            "optional may be left out (it then takes its default); a server message "
            "always carries every field of the connection's version, null included, and "
            "`seq`. A field marked \"version 2 only\" is left out on a version 1 "
            "connection; a message marked \"since version 2\" is never sent on one."
        ),
        "",
        "### Client messages",
        "",
        _para("Sent by a client. The first four open a session (the handshake); the "
              "others need one."),
        "",
    ]
    for cl in _CLIENT:
        out += entry(cl)
    out += [
        "### Server messages",
        "",
        "Sent by the server; every line carries `seq`.",
        "",
    ]
    for cl in _SERVER:
        out += entry(cl)
    out += [
        '<a id="director-commands"></a>',
        "",
        "### Director commands",
        "",
        _para(
            "The `command` object of a [`director_command`](#client-director_command), "
            'told apart by its `"op"`. Each needs a `reason`; a command that was carried '
            "out is announced to everyone (`announcement`) and the request, if it had an "
            "`id`, gets an `ack`. Each example is the whole line a director sends."
        ),
        "",
    ]
    for cl in _COMMANDS:
        out += entry(cl)
    out += [
        "### Parts",
        "",
        "Objects nested in the messages above; they have no `type`.",
        "",
    ]
    for cl in parts():
        out += entry(cl)
    return "\n".join(out).rstrip("\n") + "\n"


def _para(text: str) -> str:
    """A paragraph written here, wrapped like the rest of the page."""
    return textwrap.fill(text, WIDTH, break_on_hyphens=False, break_long_words=False)


def errors() -> str:
    out = [
        "| code | meaning | fatal |",
        "|---|---|---|",
    ]
    for code, meaning in ERROR_CODES.items():
        fatal = "yes: the connection is closed" if code in FATAL_CODES else ""
        out.append(f"| `{code}` | {_cell(meaning)} | {fatal} |")
    return "\n".join(out) + "\n"


def _rst_to_md(text: str) -> str:
    return text.replace("``", "`")


def _module_paragraph(start: str) -> str:
    """The paragraph of protocol.messages' docstring that begins with ``start``."""
    for paragraph in (m.__doc__ or "").split("\n\n"):
        if paragraph.startswith(start):
            return paragraph.strip()
    raise LookupError(start)


def conventions() -> str:
    """The conventions list of protocol.messages' docstring."""
    lines = _module_paragraph("* ").splitlines()
    out = []
    for line in lines:
        out.append(line if line.startswith("* ") else "  " + line.strip())
    return _rst_to_md("\n".join(out)) + "\n"


def versioning() -> str:
    """The versioning policy of protocol.messages' docstring."""
    text = _module_paragraph("Versioning policy:").removeprefix("Versioning policy:").strip()
    text = _rst_to_md(" ".join(text.split()))
    return textwrap.fill(text[:1].upper() + text[1:], WIDTH, break_on_hyphens=False) + "\n"


# The server's limits: (ServerConfig field or constant, what it bounds, what happens).
_LIMITS: list[tuple[str, str, str]] = [
    ("max_line", "bytes in one line from a client, without the newline (hello.max_line)",
     "error `line_too_long` (fatal), connection closed"),
    ("handshake_timeout", "seconds from connecting to a handshake (join, resume, spectate, "
     "director)", "error `timeout` (fatal), connection closed"),
    ("line_timeout", "seconds to finish a line once its first byte has arrived",
     "error `timeout` (fatal), connection closed"),
    ("ping_interval", "seconds without a byte from the client before the server sends "
     "`ping`", "a `ping` (answer `pong`; any byte counts)"),
    ("idle_timeout", "seconds without a byte from the client, in all (the ping comes "
     "first)", "error `timeout` (fatal), connection closed"),
    ("max_errors", "lines in a row that do not decode (a line that decodes resets the "
     "count; a refused request does not count)",
     "error `too_many_errors` (fatal), connection closed"),
    ("chat_per_10s", "chat messages per connection in any 10 seconds",
     "error `rate_limited`; the chat is dropped"),
    ("send_queue_bytes", "bytes waiting to be sent to one connection (a client that does "
     "not read)", "connection closed without a message; resume"),
    ("send_timeout", "seconds for the server to write one batch of lines to a connection",
     "connection closed without a message; resume"),
    ("max_connections", "open connections (lowered at start-up to what the open-file limit "
     "can hold); when all are taken, the one waiting longest for its handshake, then the "
     "spectator connected longest, makes room; every player still in has one kept",
     "error `server_full` (fatal) as the first line, instead of hello; try again later"),
    ("max_connections_per_address", "connections from one address that are not a seated "
     "player's (handshakes in progress, spectators, the director)",
     "error `server_full` (fatal) as the first line; try again later"),
    ("max_spectators_per_table", "spectators watching one table",
     "`spectate` or `snapshot_request` for it gets `server_full`; `spectate` without a table "
     "watches the lobby"),
    ("max_players", "players who may join (at most {MAX_PLAYERS}, so the lobby fits in a line)",
     "error `invalid_state` on join"),
    ("MAX_SERVER_LINE", "bytes in one line from the server, without the newline", "never sent "
     "(the lobby and standings fit; history is shortened by whole hands)"),
    ("lines_per_second", "lines read from one connection per second, after a burst of "
     "`line_burst` (800); a line answered with an error counts as 5",
     "the rest wait in the client's socket: read later"),
    ("queued_per_connection", "requests (`act`, `sit_out`, `im_back`) one connection may have "
     "waiting at its table", "error `rate_limited`"),
    ("lobby_per_minute", "`lobby_request`s per connection (5 at once; so for each kind below)",
     "error `rate_limited`, saying when to try again"),
    ("standings_per_minute", "`standings_request`s per connection", "error `rate_limited`"),
    ("snapshot_per_minute", "`snapshot_request`s per connection", "error `rate_limited`"),
    ("history_per_minute", "`history_request`s per connection", "error `rate_limited`"),
    ("status_per_minute", "`sit_out` and `call_director` per connection",
     "error `rate_limited`"),
    ("joins_per_minute_per_address", "registrations from one address (all at once, then "
     "spread over the minute)", "error `rate_limited` on join, saying when to try again"),
    ("joins_per_minute", "registrations from everyone together", "error `rate_limited` on join"),
    ("failures_before_lockout", "wrong passwords, director secrets or session tokens in a row "
     "from one address", "the address is locked out of all of these for `lockout_seconds`"),
    ("lockout_seconds", "the first lockout; each next one is twice as long, up to an hour",
     "error `rate_limited` for every such attempt, right or wrong"),
    ("failures_per_minute", "wrong passwords, secrets and tokens from everyone together",
     "error `rate_limited` for every such attempt until there is room"),
    ("HISTORY_MAX", "hands in one `history` reply (`last` is capped)", "fewer hands"),
    ("action_clock", "seconds to act on your turn (your_turn.deadline_ms)",
     "then the time bank runs"),
    ("time_bank", "seconds of time bank per player, for the whole tournament "
     "(your_turn.time_bank_ms); what a decision uses past the action clock is gone",
     "automatic check if free, else fold; then sitting out"),
    ("hand_pause", "seconds between the end of a hand and the next deal at a table", ""),
    ("seed_window", "seconds the server waits for the players' `client_seed` after a "
     "`deck_commit` (deck_commit.window_ms)", "the draw goes on; a late seed is listed as "
     "null and ignored"),
]


def limits() -> str:
    from protocol.framing import MAX_SERVER_LINE
    from server.config import MAX_PLAYERS, ServerConfig
    from server.queries import HISTORY_MAX

    defaults = ServerConfig()
    fixed = {"HISTORY_MAX": HISTORY_MAX, "MAX_SERVER_LINE": MAX_SERVER_LINE}
    out = ["| setting | default | what it bounds | past it |", "|---|---|---|---|"]
    for name, what, then in _LIMITS:
        if name in fixed:
            value: Any = fixed[name]
            setting = "(fixed)"
        else:
            value = getattr(defaults, name)
            setting = f"`{name}`"
        if isinstance(value, float):
            value = f"{value:g}"
        elif isinstance(value, int) and value >= 1 << 16 and value % 1024 == 0:
            unit = f"{value >> 20} MiB" if value % (1 << 20) == 0 else f"{value >> 10} KiB"
            value = f"{value} ({unit})"
        what = what.replace("{MAX_PLAYERS}", f"{MAX_PLAYERS:,}")
        out.append(f"| {setting} | {value} | {_cell(what)} | {_cell(then)} |")
    return "\n".join(out) + "\n"


def transcript() -> str:
    from tools import transcript as t

    return t.markdown(t.run())


def generate(names: tuple[str, ...] = SECTIONS) -> dict[str, str]:
    """The generated sections, by name, as they should stand in docs/protocol.md."""
    makers = {
        "conventions": conventions, "versioning": versioning, "limits": limits,
        "errors": errors, "transcript": transcript, "reference": reference,
    }
    return {name: makers[name]() for name in names}


# =====================================================================================
# Reading and writing docs/protocol.md
# =====================================================================================


def _pattern(name: str) -> re.Pattern[str]:
    return re.compile(
        re.escape(_BEGIN.format(name)) + r"\n(.*?)" + re.escape(_END.format(name)), re.S
    )


def sections_in(text: str) -> dict[str, str]:
    """The generated sections as they stand in a document's text."""
    found = {}
    for name in SECTIONS:
        match = _pattern(name).search(text)
        if match is not None:
            found[name] = match.group(1)
    return found


def replace(text: str, generated: dict[str, str]) -> str:
    """The document with each generated section replaced (its markers must be there)."""
    for name, body in generated.items():
        match = _pattern(name).search(text)
        if match is None:
            raise ValueError(f"docs/protocol.md has no {_BEGIN.format(name)} ... {_END.format(name)}")
        block = f"{_BEGIN.format(name)}\n{body}{_END.format(name)}"
        text = text[: match.start()] + block + text[match.end():]
    return text


def main(argv: list[str] | None = None) -> int:
    """Rewrite docs/protocol.md's generated sections (``--check``: only say if stale)."""
    args = sys.argv[1:] if argv is None else argv
    text = DOC.read_text(encoding="utf-8")
    new = replace(text, generate())
    if "--check" in args:
        if new != text:
            print(f"{DOC} is stale: run python -m tools.docgen", file=sys.stderr)
            return 1
        return 0
    if new != text:
        DOC.write_text(new, encoding="utf-8")
        print(f"rewrote the generated sections of {DOC}")
    else:
        print(f"{DOC} is current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
