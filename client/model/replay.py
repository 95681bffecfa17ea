"""A recorded hand (``HandRecord``) as the table looked street by street, for the replayer.

``replay_frames`` turns one hand of the history into frames: the blinds posted, the end of
each betting round (bets still in front), each street of an all-in board dealt, and the
result. Each frame has every seat's stack and bet, the pot gathered so far, the board, and
the cards as the requester may see them: their own all along, the others' only in the
result frame and only if they were shown (the history holds no other card). Pure.

An uncalled bet is not in the record: it is worked out as the engine does it (the top bet
less the next highest goes back when a round closes), and the result frame takes the
stacks the record gives, so it ends exactly where the hand did.
"""

from __future__ import annotations

import attrs

from client.model.log import chips
from protocol import messages as m

_STREETS = ("preflop", "flop", "turn", "river")
_BOARD_AT = {"preflop": 0, "flop": 3, "turn": 4, "river": 5}
_TITLES = {"preflop": "Before the flop", "flop": "Flop", "turn": "Turn", "river": "River"}


@attrs.frozen(kw_only=True)
class SeatFrame:
    seat: int
    name: str
    stack: int
    bet: int
    cards: tuple[str, ...] | None
    folded: bool
    all_in: bool
    won: int = 0
    button: bool = False


@attrs.frozen(kw_only=True)
class Frame:
    title: str
    board: tuple[str, ...]
    pot: int  # gathered into the pots (carried chips included), bets in front not
    seats: tuple[SeatFrame, ...]
    lines: tuple[str, ...]  # what happened in this step, in words


def _action_words(name: str, a: m.HandAction) -> str:
    words = {"fold": "folds", "check": "checks", "call": f"calls {chips(a.amount)}",
             "bet": f"bets {chips(a.to)}", "raise": f"raises to {chips(a.to)}",
             "all_in": f"goes all in for {chips(a.to)}"}
    text = f"{name} {words[a.action]}"
    if a.all_in and a.action != "all_in":
        text += " and is all in"
    return text + (" (automatic)" if a.automatic else "")


def replay_frames(record: m.HandRecord) -> list[Frame]:
    names = {p.seat: p.name for p in record.players}
    seats = [p.seat for p in record.players]
    stack = {p.seat: p.stack for p in record.players}
    bet = dict.fromkeys(seats, 0)
    folded: set[int] = set()
    pot = record.carried_in
    mine = record.your_seat

    def frame(title: str, board: tuple[str, ...], lines: list[str], *, result: bool = False,
              won: dict[int, int] | None = None) -> Frame:
        shown = {s.seat: s.cards for s in record.shown} if result else {}
        return Frame(title=title, board=board, pot=pot, lines=tuple(lines), seats=tuple(
            SeatFrame(seat=s, name=names[s], stack=stack[s], bet=bet[s],
                      cards=shown.get(s) or (record.your_cards if s == mine else None),
                      folded=s in folded, all_in=stack[s] == 0 and s not in folded,
                      won=(won or {}).get(s, 0), button=s == record.button)
            for s in seats))

    def gather() -> list[str]:
        nonlocal pot
        lines = []
        ranked = sorted(seats, key=lambda s: -bet[s])
        if ranked:
            top = bet[ranked[0]]
            second = bet[ranked[1]] if len(ranked) > 1 else 0
            if top > second:
                back = top - second
                bet[ranked[0]] -= back
                stack[ranked[0]] += back
                lines.append(f"uncalled {chips(back)} returned to {names[ranked[0]]}")
        pot += sum(bet.values())
        for s in seats:
            bet[s] = 0
        return lines

    lines = []
    ante = record.ante or 0
    if ante:
        # The big blind posts the ante for the table first: dead money, straight into the pot.
        payer = next((b.seat for b in record.blinds if b.blind == "big"), None)
        if payer is not None:
            stack[payer] -= ante
            pot += ante
            lines.append(f"{names[payer]} posts the ante {chips(ante)}" + (" and is all in" if stack[payer] == 0 else ""))
    for b in record.blinds:
        if b.amount == 0:
            continue
        stack[b.seat] -= b.amount
        bet[b.seat] += b.amount
        lines.append(f"{names[b.seat]} posts the {b.blind} blind {chips(b.amount)}"
                     + (" and is all in" if b.all_in else ""))
    you = f"you hold {' '.join(record.your_cards)}" if record.your_cards else ""
    frames = [frame("Blinds posted", (), lines + ([you] if you else []))]
    last_street = max((_STREETS.index(str(a.street)) for a in record.actions), default=0)
    reached = max(last_street, next((i for i, st in enumerate(_STREETS) if _BOARD_AT[st] == len(record.board)), 0))
    for i, street in enumerate(_STREETS[: reached + 1]):
        board = tuple(record.board[: _BOARD_AT[street]])
        if i > 0:
            frames_lines = gather()
            if frames_lines:  # an uncalled bet from the last round: say it on that round's frame
                frames[-1] = attrs.evolve(frames[-1], lines=frames[-1].lines + tuple(frames_lines))
        acts = [a for a in record.actions if a.street == street]
        lines = []
        for a in acts:
            stack[a.seat] -= a.amount
            bet[a.seat] += a.amount
            if a.action == "fold":
                folded.add(a.seat)
            lines.append(_action_words(names.get(a.seat, f"seat {a.seat}"), a))
        if not acts and i > 0:
            lines.append("no betting: a player is all in" if len(folded) < len(seats) - 1 else "")
        frames.append(frame(_TITLES[street], board, [ln for ln in lines if ln]))
    more = gather()
    if more:
        frames[-1] = attrs.evolve(frames[-1], lines=frames[-1].lines + tuple(more))
    won: dict[int, int] = {}
    lines = []
    for sh in record.shown:
        lines.append(f"{names[sh.seat]} shows {' '.join(sh.cards)}" + (f" ({sh.hand_name})" if sh.hand_name else ""))
    for res in record.results:
        label = "the pot" if len(record.results) == 1 else ("the main pot" if res.pot == 0 else f"side pot {res.pot}")
        for w in res.winners:
            won[w.seat] = won.get(w.seat, 0) + w.amount
            lines.append(f"{names[w.seat]} wins {chips(w.amount)} from {label}"
                         + (f" with {res.hand_name}" if res.hand_name else ""))
        if res.remainder_carried:
            lines.append(f"{res.remainder_carried} odd chip(s) stay for the next hand")
    final = {s.seat: s.stack for s in record.stacks}
    for s in seats:
        stack[s] = final.get(s, stack[s])
    pot = 0
    title = "Showdown" if record.shown else "Result"
    frames.append(frame(title, tuple(record.board), lines, result=True, won=won))
    return frames
