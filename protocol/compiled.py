"""Structure and unstructure functions generated per message class, for speed.

cattrs (in ``protocol.codec``) is the reference for structuring and the source of every
error message, but it calls a hook per field. The functions generated here check the same
rules inline and build the class directly; they only answer "this is a valid X" or raise
(any exception, no message). The codec uses them first and, when they raise, asks cattrs
to find and name the fault. ``tests/protocol`` checks the two agree on valid and mutated
messages.

The unstructure functions build a message's dict with ``"type"`` (or a command's
``"op"``) first and ``seq`` last, omitted while it is None, ready for ``stamp``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Literal, Union, cast, get_args, get_origin

import attrs

from protocol.messages import (
    CARDS,
    CLIENT_TYPES,
    COMMAND_TAG,
    COMMAND_TYPES,
    CONTROL,
    LATEST_VERSION,
    MAX_INT,
    SERVER_TYPES,
    SUPPORTED_VERSIONS,
    Card,
    Command,
    Least,
    Text,
)

Structure = Callable[[Any, list[int]], Any]
Unstructure = Callable[[Any], dict[str, Any]]

_UnionType = type(int | None)
_COMMAND_CLASSES = frozenset(COMMAND_TYPES.values())
ALL_CLASSES: tuple[type, ...] = (
    *CLIENT_TYPES.values(),
    *SERVER_TYPES.values(),
    *COMMAND_TYPES.values(),
)


def text_of(typ: Any) -> Text | None:
    """The Text constraint of an ``Annotated[str, Text(...)]`` type, else None."""
    for meta in getattr(typ, "__metadata__", ()):
        if isinstance(meta, Text):
            return meta
    return None


def least_of(typ: Any) -> Least | None:
    """The Least bound of an ``Annotated[int, Least(...)]`` type, else None."""
    for meta in getattr(typ, "__metadata__", ()):
        if isinstance(meta, Least):
            return meta
    return None


def since_of(cl: type | object) -> int:
    """The protocol version a message class (or a message's class) first appeared in."""
    return int(getattr(cl, "SINCE", 1))


def field_since(field: attrs.Attribute[Any]) -> int:
    """The protocol version a field first appeared in (``metadata={"since": N}``, else 1)."""
    return int(field.metadata.get("since", 1))


def optional_inner(typ: Any) -> Any:
    """X for ``X | None``, else None."""
    args = get_args(typ)
    if get_origin(typ) in (Union, _UnionType) and len(args) == 2 and type(None) in args:
        return args[0] if args[1] is type(None) else args[1]
    return None


def tuple_item(typ: Any) -> Any:
    """X for ``tuple[X, ...]``, else None."""
    args = get_args(typ)
    if get_origin(typ) is tuple and len(args) == 2 and args[1] is Ellipsis:
        return args[0]
    return None


def tag_of(cl: type) -> str:
    """The tag ("type" or "op" value) of a message or command class."""
    tag = getattr(cl, "TYPE", None)
    if not isinstance(tag, str):
        raise TypeError(f"{cl!r} has no tag")
    return tag


def tag_key(cl: type) -> str | None:
    """The tag key of a class: "type" for messages, "op" for commands, None for parts."""
    if cl in _COMMAND_CLASSES:
        return COMMAND_TAG
    return "type" if hasattr(cl, "TYPE") else None


class _Structurers:
    """Generates ``s_<Class>(obj, count) -> instance``; raises on anything invalid.

    ``count`` is a one-item list to which every structured object adds its number of keys
    (the codec compares it with the colons in the line to rule out duplicate keys).
    Instances are built by setting their slots directly and then calling
    ``__attrs_post_init__`` if the class has one, which is what the frozen attrs
    ``__init__`` does (the classes have no validators or converters) at half the cost.
    """

    def __init__(self) -> None:
        self.ns: dict[str, Any] = {"MAX": MAX_INT, "CARDS": CARDS, "NEW": object.__new__}
        self.by_class: dict[type, Structure] = {}
        self._count = 0
        commands: dict[str, Structure] = {}
        self.ns["COMMANDS"] = commands
        for cl in ALL_CLASSES:
            self.get(cl)
        for tag, cl in COMMAND_TYPES.items():
            commands[tag] = self.by_class[cl]

    def get(self, cl: type) -> Structure:
        if cl not in self.by_class:
            self._generate(cl)
        return self.by_class[cl]

    def _const(self, value: Any) -> str:
        self._count += 1
        name = f"c{self._count}"
        self.ns[name] = value
        return name

    def _text(self, text: Text, var: str) -> str:
        """A condition true when ``var`` breaks ``text`` (the same rules as Text.problem)."""
        parts = [f"type({var}) is not str"]
        if text.max is None:
            parts.append(f"len({var}) < {text.min}")
        else:
            parts.append(f"not {text.min} <= len({var}) <= {text.max}")
        if not text.control_ok:
            # isprintable() is False for every control character (and for some other
            # characters, which the regex then clears): the regex runs only when needed.
            parts.append(f"(not {var}.isprintable() and {self._const(CONTROL.search)}({var}))")
        if text.pattern is not None:
            parts.append(f"not {self._const(re.compile(text.pattern).fullmatch)}({var})")
        return " or ".join(parts)

    def _check(self, typ: Any, var: str, indent: str) -> list[str]:
        """Lines that check ``var`` against ``typ`` (and convert it, for nested types)."""
        fail = "raise ValueError"
        if typ == Card:
            return [f"{indent}if {var} not in CARDS: {fail}"]
        text = text_of(typ)
        if text is not None:
            return [f"{indent}if {self._text(text, var)}: {fail}"]
        if typ is int:
            return [f"{indent}if type({var}) is not int or not 0 <= {var} <= MAX: {fail}"]
        least = least_of(typ)
        if least is not None:
            low = least.min
            return [f"{indent}if type({var}) is not int or not {low} <= {var} <= MAX: {fail}"]
        if typ is bool:
            return [f"{indent}if {var} is not True and {var} is not False: {fail}"]
        if typ is str:
            return [f"{indent}if type({var}) is not str: {fail}"]
        if get_origin(typ) is Literal:
            # only strings: with an int choice, True would pass as 1 (True == 1)
            if not all(type(a) is str for a in get_args(typ)):
                raise TypeError(f"{typ!r}: protocol literals are strings")
            return [f"{indent}if {var} not in {self._const(frozenset(get_args(typ)))}: {fail}"]
        inner = optional_inner(typ)
        if inner is not None:
            return [f"{indent}if {var} is not None:", *self._check(inner, var, indent + "    ")]
        item = tuple_item(typ)
        if item is not None:
            return [f"{indent}{var} = {self._tuple(item)}({var}, n)"]
        if typ == Command:
            return [f"{indent}{var} = COMMANDS[{var}[{COMMAND_TAG!r}]]({var}, n)"]
        if attrs.has(typ):
            self.get(typ)
            return [f"{indent}{var} = s_{typ.__name__}({var}, n)"]
        raise TypeError(f"no structure function for {typ!r}")

    def _tuple(self, item: Any) -> str:
        self._count += 1
        name = f"t{self._count}"
        lines = [f"def {name}(v, n):", "    if type(v) is not list: raise ValueError"]
        check = self._check(item, "x", "        ")
        if item == Card or get_origin(item) is Literal:
            # one C-level check for the whole list (an unhashable item raises TypeError)
            choices = "CARDS" if item == Card else self._const(frozenset(get_args(item)))
            lines += [f"    if not {choices}.issuperset(v): raise ValueError"]
            lines += ["    return tuple(v)"]
        elif attrs.has(item) and tag_key(item) is None and not hasattr(item, "__attrs_post_init__"):
            # A list of parts (seats, pots): the part's structuring inlined in the loop,
            # saving a call per item.
            lines += ["    out = []", "    for o in v:",
                      *("    " + line for line in self._body(item)), "        out.append(r)"]
            lines.append("    return tuple(out)")
        elif any(line.lstrip().startswith("x = ") for line in check):
            lines += ["    out = []", "    for x in v:", *check, "        out.append(x)"]
            lines.append("    return tuple(out)")
        else:
            lines += ["    for x in v:", *check, "    return tuple(v)"]
        exec("\n".join(lines), self.ns)
        return name

    def _body(self, cl: type) -> list[str]:
        """Lines (indented for a function body) that check the dict ``o`` against ``cl``
        and leave the instance in ``r``."""
        fields = attrs.fields(attrs.resolve_types(cl))
        keys = {f.name for f in fields}
        key = tag_key(cl)
        if key is not None:
            keys.add(key)
        lines = [
            f"    if type(o) is not dict or not {self._const(frozenset(keys))}.issuperset(o):",
            "        raise ValueError",
            "    n[0] += len(o)",
        ]
        for i, field in enumerate(fields):
            var = f"v{i}"
            if field.default is attrs.NOTHING:
                lines.append(f"    {var} = o[{field.name!r}]")
            else:
                if isinstance(field.default, attrs.Factory):  # type: ignore[arg-type]
                    raise TypeError(f"{cl.__name__}.{field.name}: factories are not supported")
                # The check below converts a line's list into a tuple, and refuses a tuple:
                # a tuple default goes in as the list a line would hold (never mutated).
                default = list(field.default) if isinstance(field.default, tuple) else field.default
                lines.append(f"    {var} = o.get({field.name!r}, {self._const(default)})")
            lines += self._check(field.type, var, "    ")
        lines.append(f"    r = NEW({self._const(cl)})")
        for i, field in enumerate(fields):
            lines.append(f"    {self._const(getattr(cl, field.name).__set__)}(r, v{i})")
        if hasattr(cl, "__attrs_post_init__"):
            lines.append("    r.__attrs_post_init__()")
        return lines

    def _generate(self, cl: type) -> None:
        name = f"s_{cl.__name__}"
        lines = [f"def {name}(o, n):", *self._body(cl), "    return r"]
        exec(compile("\n".join(lines), f"<structure {cl.__name__}>", "exec"), self.ns)
        self.by_class[cl] = cast(Structure, self.ns[name])


class _Unstructurers:
    """Generates ``u_<Class>(obj) -> dict``; ``plain`` gives lists where the class has tuples.

    Parts (nested classes without a tag) are written inline as dict displays, saving a
    function call per seat, pot or action. ``version`` is the protocol version written:
    fields new in a later version are left out, and classes new in a later version get no
    function at all (they cannot be sent on such a connection).
    """

    def __init__(self, plain: bool, version: int = LATEST_VERSION) -> None:
        self.plain = plain
        self.version = version
        self.ns: dict[str, Any] = {}
        self.by_class: dict[type, Unstructure] = {}
        commands: dict[type, Unstructure] = {}
        self.ns["COMMANDS"] = commands
        for cl in ALL_CLASSES:
            if since_of(cl) <= version:
                self.get(cl)
        for cl in COMMAND_TYPES.values():
            if cl in self.by_class:
                commands[cl] = self.by_class[cl]

    def get(self, cl: type) -> Unstructure:
        if cl not in self.by_class:
            self._generate(cl)
        return self.by_class[cl]

    def _expr(self, typ: Any, src: str, depth: int) -> str:
        if text_of(typ) is not None or least_of(typ) is not None:
            typ = get_args(typ)[0]
        if typ in (int, str, bool) or get_origin(typ) is Literal:
            return src
        inner = optional_inner(typ)
        if inner is not None:
            expr = self._expr(inner, src, depth)
            return src if expr == src else f"(None if {src} is None else {expr})"
        item = tuple_item(typ)
        if item is not None:
            var = f"x{depth}"
            expr = self._expr(item, var, depth + 1)
            if expr == var:
                return f"list({src})" if self.plain else src
            return f"[{expr} for {var} in {src}]"
        if typ == Command:
            return f"COMMANDS[{src}.__class__]({src})"
        if attrs.has(typ):
            if tag_key(typ) is None:
                return self._display(typ, src, depth)
            self.get(typ)
            return f"u_{typ.__name__}({src})"
        raise TypeError(f"no unstructure function for {typ!r}")

    def _display(self, cl: type, src: str, depth: int) -> str:
        items = []
        key = tag_key(cl)
        if key is not None:
            items.append(f"{key!r}: {tag_of(cl)!r}")
        for field in attrs.fields(attrs.resolve_types(cl)):
            if field.name != "seq" and field_since(field) <= self.version:
                expr = self._expr(field.type, f"{src}.{field.name}", depth)
                items.append(f"{field.name!r}: {expr}")
        return "{" + ", ".join(items) + "}"

    def _generate(self, cl: type) -> None:
        name = f"u_{cl.__name__}"
        body = self._display(cl, "o", 0)
        if "seq" in attrs.fields_dict(cl):
            code = (
                f"def {name}(o):\n    d = {body}\n"
                "    if o.seq is not None:\n        d['seq'] = o.seq\n    return d\n"
            )
        else:
            code = f"def {name}(o):\n    return {body}\n"
        exec(compile(code, f"<unstructure {cl.__name__}>", "exec"), self.ns)
        self.by_class[cl] = cast(Unstructure, self.ns[name])


@attrs.frozen
class Compiled:
    """The generated functions, one set per build (see ``build``)."""

    structure: dict[type, Structure]
    """Fast structure per class: ``(value, [0]) -> instance``; raises (anything) if invalid."""
    wire_by_version: dict[int, dict[type, Unstructure]]
    """Unstructure per protocol version and class for the encoder (tuples stay tuples: both
    JSON backends take them). A class missing for a version cannot be sent on it."""
    plain: dict[type, Unstructure]
    """Unstructure per class to plain JSON data (lists, dicts, str, int, bool, None), latest
    version: every field."""


def build() -> Compiled:
    """Generate every function. Run once, at import (``BUILT``); a test builds a fresh set
    to judge the generators themselves (code run at import is out of a mutation tool's
    reach: docs/testing.md)."""
    return Compiled(
        structure=_Structurers().by_class,
        wire_by_version={
            version: _Unstructurers(plain=False, version=version).by_class
            for version in SUPPORTED_VERSIONS
        },
        plain=_Unstructurers(plain=True).by_class,
    )


BUILT = build()
STRUCTURE: dict[type, Structure] = BUILT.structure
UNSTRUCTURE_WIRE_BY_VERSION: dict[int, dict[type, Unstructure]] = BUILT.wire_by_version
UNSTRUCTURE_WIRE: dict[type, Unstructure] = UNSTRUCTURE_WIRE_BY_VERSION[LATEST_VERSION]
"""Unstructure per class for the encoder, latest version."""
UNSTRUCTURE: dict[type, Unstructure] = BUILT.plain
