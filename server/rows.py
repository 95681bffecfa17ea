"""The rows the server stores: ``Record`` (one row: a statement and its parameters), the
JSON text of a row, the log's and the settings' rows, and a commit's rows as few statements.

Kept apart from ``store.py`` (the database file and the commit path) because every part of
the server builds rows (``journal.py`` most of them) while only the store writes them.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from itertools import chain
from typing import Any

import attrs

from poker.makers import maker


def _row_json() -> Callable[[Any], str]:
    encoder = json.JSONEncoder(separators=(",", ":"))
    c_make_encoder = getattr(json.encoder, "c_make_encoder", None)
    if c_make_encoder is None:  # an interpreter without the C accelerator
        return encoder.encode
    # What ``encoder.encode`` builds on every call (``JSONEncoder.iterencode``: the C
    # encoder, a float formatter, a dict for the circular check), built once. A row is
    # never circular (a circular value would end in RecursionError instead of ValueError).
    chunks = c_make_encoder(None, encoder.default, json.encoder.encode_basestring_ascii, None,
                            ":", ",", False, False, True)

    def row_json(value: Any) -> str:
        return "".join(chunks(value, 0))

    return row_json


row_json: Callable[[Any], str] = _row_json()
"""A stored row's JSON text: exactly ``json.dumps(value, separators=(",", ":"))``, without
building an encoder per row (``json.dumps`` builds one for any argument but the value, and
``JSONEncoder.encode`` its C encoder: three rows per action)."""


@attrs.frozen(kw_only=True)
class Record:
    """One row to write. ``sql`` with ``params``; built by the helpers below."""

    sql: str
    params: tuple[Any, ...]


make_record: Callable[..., Record] = maker(Record)
"""``Record(sql, params)`` without attrs' checks, for the rows of every action
(``poker.makers``)."""


def input_record(kind: str, payload: dict[str, Any], table_id: int | None = None) -> Record:
    return make_record(sql="INSERT INTO inputs (kind, table_id, payload) VALUES (?, ?, ?)",
                       params=(kind, table_id, row_json(payload)))


_VALUES = re.compile(r"^(INSERT (?:OR REPLACE )?INTO [^(]+\([^)]*\) VALUES )(\((?:\?, )*\?\))$")
ROWS_PER_STATEMENT = 100  # at most 100 x 6 = 600 parameters, under SQLite's oldest limit (999)


def statements(records: list[Record]) -> list[tuple[str, tuple[Any, ...]]]:
    """The rows of a commit as few statements: the rows of each ``INSERT ... VALUES (?, ..)``
    in one multi-row statement, in their order; anything else one by one.

    Rows of one statement keep their order (the log's ``seq`` is the insertion order);
    statements of different kinds are not reordered against each other's dependencies
    because a commit never holds two that depend on each other: each table waits for its
    commit before its next change."""
    groups: dict[str, list[tuple[Any, ...]]] = {}
    for r in records:
        rows = groups.get(r.sql)
        if rows is None:
            groups[r.sql] = [r.params]
        else:
            rows.append(r.params)
    out: list[tuple[str, tuple[Any, ...]]] = []
    for sql, rows in groups.items():
        if len(rows) == 1:
            out.append((sql, rows[0]))
            continue
        if _values_of(sql) is None:
            out += [(sql, params) for params in rows]
            continue
        for i in range(0, len(rows), ROWS_PER_STATEMENT):
            chunk = rows[i:i + ROWS_PER_STATEMENT]
            out.append((_rows_sql(sql, len(chunk)), tuple(chain.from_iterable(chunk))))
    return out


@functools.cache
def _values_of(sql: str) -> tuple[str, str] | None:
    """``INSERT ... VALUES `` and its ``(?, ..)``, or None for a statement of another kind
    (a commit's statements are a few fixed texts: worked out once each)."""
    match = _VALUES.match(sql)
    return None if match is None else (match[1], match[2])


@functools.cache
def _rows_sql(sql: str, rows: int) -> str:
    """``sql`` (an ``INSERT ... VALUES (?, ..)``) for ``rows`` rows in one statement."""
    values = _values_of(sql)
    assert values is not None
    return values[0] + ", ".join([values[1]] * rows)


def parse_payload(text: str) -> dict[str, Any]:
    """A logged input's payload; a damaged one reads as ``{"_unreadable": text}``, which the
    replay refuses like any other bad entry (a hand's action: the hand is voided)."""
    try:
        payload = json.loads(text)
    except (ValueError, TypeError):
        return {"_unreadable": text}
    return payload if isinstance(payload, dict) else {"_unreadable": text}


def meta_record(key: str, value: str) -> Record:
    return Record(sql="INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", params=(key, value))

