"""The game file a bot runs with, against Hickory's hands and tournament (pure).

A competition bot reads its game definition once, at start, and trusts it: its parser
refuses a state its game cannot produce (ACPC's ``example_player`` exits on
``MATCHSTATE:0:2:r50:...`` when its game's big blind is 100), and it decides whose turn
it is from the game's number of players. A Hickory hand can be shown to such a bot only
when the hand's own game definition (``gamedef.game_for_hand``) is exactly the bot's:
the same number of players dealt in, the same blind and the same stack before the blinds
at every position. Anything less and the bot reads a different game from the same line:
a stack that differs moves who is all in (and so whose turn it is) and what raise is the
largest; a blind that differs moves the smallest raise.

``read_game_file`` reads an ACPC game file (no-limit hold'em only, Hickory's game);
``hand_differences`` says why a hand's game is not the bot's; ``tournament_fit`` says, from
the tournament's lobby, whether any hand can be shown and what is adjusted in those that
are. ``hickory-acpc --check GAMEFILE`` prints it; the one-connection mode refuses at start
when nothing can be shown.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from client.acpc.gamedef import BOARD_CARDS, ROUNDS, GameDef
from protocol import messages as m

__all__ = ["Fit", "blinds_text", "hand_differences", "read_game_file", "standard_first", "tournament_fit"]


def standard_first(players: int) -> tuple[int, ...]:
    """Who acts first in each round (0-based), as Hickory deals: heads-up the button (the
    small blind, position 1) before the flop, else the player after the big blind."""
    return (1, 0, 0, 0) if players == 2 else (2 % players, 0, 0, 0)


def read_game_file(text: str) -> GameDef:
    """An ACPC game definition (``GAMEDEF`` ... ``END GAMEDEF``), as the ACPC server's
    ``readGame`` reads it: keys in any case, ``#`` comments. ValueError, with what to
    change, for anything but Hickory's game (no-limit hold'em, 4 rounds, 52 cards, 2 hole
    cards, boards of 3, 1 and 1) or for positions Hickory does not deal."""
    values: dict[str, list[str]] = {}
    kinds: list[str] = []
    started = ended = False
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        low = line.lower()
        if low == "gamedef":
            started = True
        elif low == "end gamedef":
            ended = True
        elif "=" in line:
            key, _, val = line.partition("=")
            values[key.strip().lower()] = val.split()
        else:
            kinds.append(low)
    if not started or not ended:
        raise ValueError("not an ACPC game file (GAMEDEF ... END GAMEDEF)")
    if kinds != ["nolimit"]:
        raise ValueError(f"a {' '.join(kinds) or 'limit'} game: Hickory plays no-limit hold'em (the file must say nolimit)")
    try:
        players = int(values["numplayers"][0])
        stacks = tuple(int(v) for v in values["stack"])
        blinds = tuple(int(v) for v in values["blind"])
        first = tuple(int(v) - 1 for v in values.get("firstplayer", ["1"] * ROUNDS))
    except (KeyError, IndexError, ValueError) as exc:
        raise ValueError(f"numPlayers, stack and blind must be given as numbers ({exc})") from None
    expected = {"numrounds": [str(ROUNDS)], "numsuits": ["4"], "numranks": ["13"], "numholecards": ["2"],
                "numboardcards": [str(b) for b in BOARD_CARDS]}
    for key, want in expected.items():
        if values.get(key) != want:
            raise ValueError(f"{key} = {' '.join(values.get(key, [])) or '(missing)'}: hold'em has {' '.join(want)}")
    if len(stacks) != players or len(blinds) != players:
        raise ValueError(f"numPlayers = {players} but {len(stacks)} stacks and {len(blinds)} blinds")
    game = GameDef(stacks=stacks, blinds=blinds, first_player=first)
    if first != standard_first(players):
        raise ValueError(f"firstPlayer = {' '.join(str(p + 1) for p in first)}: Hickory's order is "
                         f"{' '.join(str(p + 1) for p in standard_first(players))}")
    if any(blinds[2:]) or min(blinds[:2]) <= 0:
        raise ValueError(f"blind = {' '.join(map(str, blinds))}: Hickory posts the blinds at positions 1 and 2 "
                         "(heads-up: the big blind, then the small blind) and no other")
    big, small = (blinds[0], blinds[1]) if players == 2 else (blinds[1], blinds[0])
    if small > big:
        raise ValueError(f"blind = {' '.join(map(str, blinds))}: the small blind is more than the big blind"
                         + (" (heads-up ACPC lists the big blind first)" if players == 2 else ""))
    return game


def blinds_text(game: GameDef) -> str:
    """``small/big`` of a game with Hickory's blind positions."""
    b = game.blinds
    small, big = (b[1], b[0]) if game.players == 2 else (b[0], b[1])
    return f"{small}/{big}"


def hand_differences(bot: GameDef, hand: GameDef) -> list[str]:
    """Why ``hand`` cannot be shown to a bot that runs with ``bot`` (empty: it can)."""
    if hand == bot:
        return []
    if hand.players != bot.players:
        return [f"{hand.players} players, the bot's game has {bot.players}"]
    out = []
    if hand.blinds != bot.blinds:
        out.append(f"blinds {blinds_text(hand)}, the bot's game has {blinds_text(bot)}")
    if hand.stacks != bot.stacks:
        out.append(f"stacks {' '.join(map(str, hand.stacks))}, the bot's game has {' '.join(map(str, bot.stacks))}")
    return out or ["another game"]


@attrs.frozen
class Fit:
    """What a tournament shows a bot with a given game file. ``possible``: some hand can be
    shown; ``never``: the reason none can (the one-connection mode refuses to start);
    ``lines``: the whole report, for ``--check``."""

    possible: bool
    never: str | None
    lines: tuple[str, ...]


def _levels_text(levels: Sequence[m.ScheduleLevel], start: int) -> str:
    shown = [f"{lv.small_blind}/{lv.big_blind}" for lv in levels[start:start + 8]]
    return " ".join(shown) + (" ..." if len(levels) > start + 8 else "")


def _first_table_sizes(lobby: m.Lobby, seats: int | None) -> set[int]:
    """How many players the first hands have at a table (empty: not known): the players
    the tournament starts with, balanced over the fewest tables that seat them."""
    if lobby.state != "registering" or lobby.start_players is None or seats is None:
        return set()
    players = lobby.start_players
    tables = -(-players // seats)
    return {players // tables, -(-players // tables)}


def tournament_fit(bot: GameDef, lobby: m.Lobby) -> Fit:
    """Whether a bot running with ``bot`` can be shown hands of the tournament in ``lobby``."""
    rules = lobby.rules
    lines: list[str] = []
    n = bot.players
    lines.append(f"the bot's game: {n} players, blinds {blinds_text(bot)}, stacks {' '.join(map(str, bot.stacks))}")
    seats = rules.seats_per_table if rules is not None else None
    start = lobby.level.index if lobby.level is not None else 0
    alive = [p for p in lobby.players if p.status != "eliminated"]
    chips = sum(p.chips for p in alive) + lobby.carried
    lines.append(f"the tournament: {len(alive)} players in, {chips} chips in play, "
                 f"{seats if seats is not None else '?'} seats a table, blinds from now on "
                 f"{_levels_text(lobby.schedule, start)}, ruleset {rules.ruleset if rules else '?'}")
    never = None
    small, big = map(int, blinds_text(bot).split("/"))
    matching = [i for i, lv in enumerate(lobby.schedule)
                if i >= start and (lv.small_blind, lv.big_blind) == (small, big)]
    if seats is not None and n > seats:
        never = f"the bot's game has {n} players and the tables seat {seats}"
    elif not matching:
        never = f"no blind level from now on is {small}/{big} (the levels: {_levels_text(lobby.schedule, start)})"
    elif matching[0] != start:
        # By the time the blinds are the game's, hands have moved the chips: a hand would
        # have the game's stacks only by chance.
        never = (f"the blinds are {small}/{big} only from level {matching[0] + 1} (now level {start + 1}); "
                 "by then the stacks have moved, and a hand would be shown only if, by chance, every stack "
                 f"at the table came to be exactly {' '.join(map(str, bot.stacks))}")
    elif (sizes := _first_table_sizes(lobby, seats)) and n not in sizes:
        never = (f"the bot's game has {n} players and the tournament's first hands have "
                 f"{' or '.join(map(str, sorted(sizes)))} at a table; a hand of {n} comes only as players are "
                 "knocked out, when the stacks have moved, and would be shown only by chance")
    elif not alive:
        lines.append("nobody has joined yet: the starting stack is not known, so the stacks are not checked")
    elif lobby.state == "registering":
        starting = sorted({p.chips for p in alive})
        if any(stack not in starting for stack in bot.stacks):
            never = (f"the bot's game has stacks {' '.join(map(str, bot.stacks))} and every player starts "
                     f"with {', '.join(map(str, starting))}: a hand would be shown only if, by chance, every "
                     "stack at the table came to be exactly those")
    elif sum(bot.stacks) > chips:
        never = f"the bot's game's stacks add up to {sum(bot.stacks)}, more than the {chips} chips in play"
    else:
        have = sorted(p.chips for p in alive)
        want = sorted(bot.stacks)
        if not all(have.count(c) >= want.count(c) for c in set(want)):
            never = (f"the bot's game has stacks {' '.join(map(str, bot.stacks))} and no {n} players have those "
                     "chips now: a hand would be shown only if, by chance, every stack at the table came to "
                     "be exactly those")
    levels = ", ".join(str(i + 1) for i in matching) or "none"
    lines.append(f"- players: only hands with exactly {n} dealt in are shown"
                 + (f" (tables seat {seats}: hands with other numbers of players are played for the bot)"
                    if seats is not None and seats != n else ""))
    lines.append(f"- blinds: only hands at {small}/{big} (level{'s' if len(matching) > 1 else ''} {levels}), "
                 "and not when a blind is short (all in)")
    lines.append(f"- stacks: only hands where every position's stack before the blinds is exactly "
                 f"{' '.join(map(str, bot.stacks))} (stacks change every hand: after the first hand this is rare)")
    if rules is not None:
        lines.append(f"- the clock: {rules.action_seconds} s a decision and a time bank of {rules.time_bank_seconds} s; "
                     "a bot that needs longer to start loses the decisions that come before it connects")
    lines.append("- every other hand is played for the bot (check, or fold when there is a bet) and the bot sees "
                 "nothing of it; the bridge names each one")
    if rules is not None and rules.ruleset == "hickory":
        lines.append("- adjusted in the hands shown (ruleset hickory): a raise that adds less than the round's "
                     "last raise (Hickory allows any raise of at least the big blind) is shown as ACPC's "
                     "minimum raise, up to that player's stack: the bot sees that raise larger than it was, by up "
                     "to the round's last raise less the big blind; --ruleset standard on the server avoids it")
    if rules is not None and rules.ruleset == "standard":
        lines.append("- raises (ruleset standard): every raise is shown at its total; after a short all-in raise "
                     "Hickory does not reopen the betting to players who have acted (ACPC does): a bot's raise "
                     "there is played, and shown, as a call")
    lines.append("- adjusted in every ruleset: odd chips carried into a hand are not shown; a player Hickory does "
                 "not ask (nobody left to bet against) is shown with the check ACPC expects")
    if never is not None:
        lines.append(f"verdict: no hand can be shown to this bot: {never}. Use --bot-cmd: it gives the bot "
                     "a game file with each hand's own stacks and blinds")
    else:
        lines.append("verdict: the first hands can be shown (their stacks and blinds are the game file's"
                     + ("" if alive else ", if the starting stack is") + "); after them a hand is shown only "
                     "when it happens to match the game file exactly, and every other hand is played for the "
                     "bot. --bot-cmd shows every hand")
    return Fit(possible=never is None, never=never, lines=tuple(lines))
