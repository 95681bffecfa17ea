"""The oracle: a client's picture of its table against what the server holds for it.

Every connection's ``ClientModel`` (the model the terminal client and the bots draw from)
is reduced to a ``Picture``; so is what the server would send that connection as a fresh
``table_snapshot`` now (``snapshots.snapshot_for``, built from ``views.view_for`` for its
seat, or the spectator view). The two must be equal whenever the server is quiet: a
model kept up to date by events must show what a client starting afresh would see.

What is compared depends on what the connection's protocol version can know: the blind
seats and who is dealt in come in version 3 snapshots (a version 1 or 2 client that joined
mid-hand cannot know them), whose turn it is in version 2's ``turn``.
"""

from __future__ import annotations

import attrs

import protocol.messages as m
from client.model.client_model import ClientModel
from client.model.people import BUSTED
from client.model.table import TableModel


@attrs.frozen(kw_only=True)
class Picture:
    table: int
    hand_no: int | None
    button: int | None
    seats: tuple[tuple[int, str, int, int, bool], ...]  # seat, name, stack, bet, folded
    in_hand: tuple[int, ...] | None  # dealt in (version 3 only)
    street: str | None
    board: tuple[str, ...]
    pot: int
    to_act: int | None
    blinds: tuple[int | None, int | None] | None
    your_cards: tuple[str, ...] | None

    def differences(self, other: Picture) -> list[str]:
        """What differs, field by field: ``field: client ... server ...``."""
        out = []
        for f in attrs.fields(Picture):
            a, b = getattr(self, f.name), getattr(other, f.name)
            if a != b:
                out.append(f"{f.name}: client {a!r}, server {b!r}")
        return out


def _live(street: str | None) -> bool:
    return street is not None


def from_snapshot(snap: m.TableSnapshot, version: int) -> Picture:
    """The server's side: a fresh snapshot for this connection, reduced."""
    live = _live(snap.street)
    return Picture(
        table=snap.table,
        hand_no=snap.hand_no,
        button=snap.button,
        seats=tuple((v.seat, v.name, v.stack, v.bet if live else 0, bool(live and v.in_hand and v.folded))
                    for v in sorted(snap.seats, key=lambda v: v.seat)),
        in_hand=tuple(v.seat for v in sorted(snap.seats, key=lambda v: v.seat) if v.in_hand)
        if live and version >= 3 else None,
        street=snap.street,
        board=tuple(snap.board) if live else (),
        pot=sum(p.amount for p in snap.pots) if live else 0,
        to_act=snap.to_act if live and version >= 2 else None,
        blinds=(snap.small_blind_seat, snap.big_blind_seat) if live and version >= 3 else None,
        your_cards=tuple(snap.your_cards) if live and snap.your_cards is not None else None,
    )


def from_model(t: TableModel, version: int) -> Picture:
    """The client's side: its table model, reduced the same way."""
    street = t.street.value if t.street is not None else None
    live = _live(street)
    # A player just eliminated keeps their seat on screen, marked, until the next hand
    # (their shown cards stay readable): not a seat any more.
    seats = sorted((s for s in t.seats.values() if live or s.last != BUSTED), key=lambda s: s.seat)
    return Picture(
        table=t.table,
        hand_no=t.hand_no,
        button=t.button,
        # Folded means something only for a seat dealt in (the model marks the others
        # folded, the server's snapshot does not).
        seats=tuple((s.seat, s.name, s.stack, s.bet if live else 0, live and s.in_hand and s.folded)
                    for s in seats),
        in_hand=tuple(s.seat for s in seats if s.in_hand) if live and version >= 3 else None,
        street=street,
        board=tuple(t.board) if live else (),
        pot=t.pot_total if live else 0,
        to_act=t.to_act if live and version >= 2 else None,
        blinds=(t.small_blind_seat, t.big_blind_seat) if live and version >= 3 else None,
        your_cards=tuple(t.your_cards) if live and t.your_cards is not None else None,
    )


@attrs.define
class Watched:
    """One test connection under the oracle: its model and the messages it applied."""

    label: str
    version: int
    model: ClientModel = attrs.Factory(ClientModel)
    applied: int = 0
    recent: list[m.ServerMessage] = attrs.Factory(list)  # the last few messages applied

    def apply(self, msg: m.ServerMessage) -> None:
        self.model.apply(msg)
        self.applied += 1
        self.recent = [*self.recent[-7:], msg]

    @property
    def last(self) -> list[str]:
        first = self.applied - len(self.recent) + 1
        return [f"#{first + i} {type(x).TYPE}" for i, x in enumerate(self.recent)]  # type: ignore[attr-defined]


def mismatch(w: Watched, server_snap: m.TableSnapshot | None) -> str | None:
    """None when the pictures agree; else a report naming the message after which they
    parted (the last one this connection applied) and every field that differs."""
    t = w.model.table
    if server_snap is None:
        return None  # nothing to compare: no table on the server's side
    if t is None:
        return (f"{w.label}: no table in the client, the server has table {server_snap.table} "
                f"(after {', '.join(w.last) or 'nothing'})")
    theirs = from_snapshot(server_snap, w.version)
    mine = from_model(t, w.version)
    diff = mine.differences(theirs)
    if not diff:
        return None
    return (f"{w.label} (v{w.version}): the pictures parted after message {w.last[-1] if w.last else '?'} "
            f"(last applied: {', '.join(w.last)}):\n    " + "\n    ".join(diff))

