"""The director's command line: typed text to a protocol ``Command``, or a message saying why not.

Every command needs a reason (it goes into the announcement and the audit log); the reason
is whatever follows the command's arguments. Players are named by name or by id. Examples::

    start everyone is here
    pause dinner break                    (pause table=2 ... holds one table)
    resume back from dinner               (resume table=2 ... lets it deal again)
    level 4 running late
    schedule 100/200/20,200/400/20,300/600/20 shorter night
    options action=20 bank=30 grace=60 chat=off too slow
    deadline 23:30 the hall closes        (deadline none ... clears it)
    break 4 10 pizza arrives at nine      (break 4 0 ... removes it)
    move alice 2 [5] balancing by hand
    remove bob left the building
    chips carol 12000 miscount at table 2
    announce Last hands before the break!
    rule 3 the bet stands: string raises are not allowed   (answers floor call 3)
    rule table=2 the button moves to seat 4               (rule all ... for everyone)
    void 2 two cards exposed in the deal
    late 4 friends on their way           (late off ... closes it)
    award carol best bluff
    reveal                                (once it is over: the server seeds again)
"""

from __future__ import annotations

import datetime as dt
import re

from protocol import messages as m
from protocol import names

__all__ = ["COMMAND_HELP", "COMMAND_MEANING", "DirectorInputError", "complete", "help_text", "parse_command"]


class DirectorInputError(ValueError):
    """A director command line that cannot be sent, with what to type instead."""


COMMAND_HELP = {
    "start": "start REASON",
    "pause": "pause [table=N] REASON",
    "resume": "resume [table=N] REASON",
    "level": "level N REASON (N from 1)",
    "schedule": "schedule SB/BB/MIN,SB/BB/MIN,... (or SB/BB/ANTE/MIN for a big-blind ante) REASON",
    "options": "options KEY=VALUE... REASON (help options: the keys)",
    "deadline": "deadline HH:MM|ISO|none REASON",
    "break": "break LEVEL MINUTES REASON (0 minutes removes it)",
    "move": "move PLAYER TABLE [SEAT] REASON",
    "remove": "remove PLAYER REASON",
    "chips": "chips PLAYER AMOUNT REASON",
    "announce": "announce TEXT",
    "rule": "rule CALL|table=N|all DECISION",
    "void": "void TABLE REASON",
    "late": "late LEVEL|off REASON",
    "award": "award PLAYER TITLE",
    "reveal": "reveal",
}


COMMAND_MEANING = {
    "start": "start the tournament now, with whoever has joined",
    "pause": "stop dealing new hands and stop the level clock (hands in play finish); "
             "with table=N hold that table only",
    "resume": "deal again and restart the level clock; with table=N let that table deal again",
    "level": "jump to blind level N of the schedule, from the next hand",
    "schedule": "replace the blind schedule: small blind/big blind/minutes per level, or "
                "small blind/big blind/ante/minutes (antes turn the big-blind ante on)",
    "options": "action=S bank=S grace=S (action clock, time bank, reconnect grace in seconds), "
               "chat=on|off, ruleset=hickory|standard (the minimum raise), minutes=N or hands=N (level length), "
               "ante=on|off (the big-blind ante), entries=N (per player, re-entries included; 1: none) "
               "and reentry=LEVEL|late (re-entry through that level, or while late registration is open), "
               "tv=TABLE|off and tvdelay=S (the TV table: its spectators see the hole cards S seconds after each hand)",
    "deadline": "the time the tournament should end by (local time), or none",
    "break": "a break of MINUTES (1-120) when level LEVEL ends; resume ends it early",
    "move": "move a player to a table (and seat); balancing still applies afterwards",
    "remove": "take a player out of the tournament (their chips leave play)",
    "chips": "set a player's stack (a miscount, a penalty)",
    "announce": "show a line to everyone",
    "rule": "a ruling: answers floor call CALL (Tab shows the open calls), or for a table, or for everyone",
    "void": "call off the hand in play at a table: every bet goes back, the carried chips stay",
    "late": "take late entries (starting stack) through level LEVEL, or close late registration",
    "award": "name a trophy for the final results (winner and runner-up are automatic)",
    "reveal": "send the server seeds again, once the tournament is over (players check their decks)",
    "help": "this list; help COMMAND for one command",
}
"""What each command does, for ``help`` and docs/director.md."""


def help_text(op: str | None) -> str:
    """``help`` (every command's syntax) or ``help COMMAND`` (its syntax and meaning)."""
    if op is None:
        return "commands: " + " · ".join(COMMAND_HELP.values()) + " · help COMMAND"
    op = op.lower()
    if op == "help":
        return "help [COMMAND]: " + COMMAND_MEANING["help"]
    if op not in COMMAND_HELP:
        return f"unknown command {op!r}: one of " + ", ".join(COMMAND_HELP)
    return f"{COMMAND_HELP[op]}: {COMMAND_MEANING[op]}"


def player_word(p: m.LobbyPlayer) -> str:
    """How to name a player on the command line: the name, or ``#id`` if it has a space."""
    return p.name if " " not in p.name else f"#{p.player_id}"


_TAKES_PLAYER = frozenset({"move", "remove", "chips", "award"})


def complete(text: str, lobby: m.Lobby | None) -> list[str]:
    """What the last word of ``text`` can become: command names first, then (after move,
    remove or chips) player names, or ``#id`` for a name with a space."""
    words = text.split(" ")
    if len(words) <= 1:
        prefix = words[0].lower()
        return [op for op in (*COMMAND_HELP, "help") if op.startswith(prefix)]
    op = words[0].lower()
    if op == "help" and len(words) == 2:
        return [o for o in COMMAND_HELP if o.startswith(words[1].lower())]
    if op in _TAKES_PLAYER and len(words) == 2 and lobby is not None:
        prefix = words[1].lower()
        out = []
        for p in lobby.players:
            word = player_word(p)
            if word.lower().startswith(prefix) or p.name.lower().startswith(prefix.lstrip("#")):
                out.append(word)
        return out
    return []


def _usage(op: str) -> DirectorInputError:
    return DirectorInputError(f"usage: {COMMAND_HELP[op]}")


def _int(text: str, what: str) -> int:
    if not re.fullmatch(r"\d+", text):
        raise DirectorInputError(f"{what} must be a whole number, not {text!r}")
    return int(text)


def _player(text: str, lobby: m.Lobby | None) -> tuple[int, str]:
    players = lobby.players if lobby is not None else ()
    if text.startswith("#") and text[1:].isdigit():
        text = text[1:]
    wanted = names.key(text)  # as the server compares names: "alice" finds "Alice"
    for p in players:
        if names.key(p.name) == wanted:
            return p.player_id, p.name
    if text.isdigit():
        pid = int(text)
        for p in players:
            if p.player_id == pid:
                return pid, p.name
        return pid, f"player {pid}"
    raise DirectorInputError(f"no player named {text!r} (use the name shown in the lobby, or the id)")


def _reason(words: list[str], op: str) -> str:
    reason = " ".join(words).strip()
    if not reason:
        raise DirectorInputError(f"every command needs a reason: {COMMAND_HELP[op]}")
    return reason[:200]


def _deadline(text: str) -> str | None:
    if text.lower() in ("none", "off", "clear"):
        return None
    try:
        if re.fullmatch(r"\d{1,2}:\d{2}", text):
            hh, mm = (int(x) for x in text.split(":"))
            now = dt.datetime.now().astimezone()
            when = now.replace(hour=hh, minute=mm, second=0, microsecond=0)
            if when <= now:
                when += dt.timedelta(days=1)
        else:
            when = dt.datetime.fromisoformat(text)
            if when.tzinfo is None:
                when = when.astimezone()
    except ValueError:
        raise DirectorInputError(f"not a time: {text!r} (use HH:MM, an ISO time, or none)") from None
    return when.isoformat(timespec="seconds")


def parse_command(text: str, lobby: m.Lobby | None = None) -> tuple[m.Command, str]:
    """(the command, a one-line summary for the confirmation) from a typed line."""
    words = text.split()
    if not words:
        raise DirectorInputError("type a command: " + ", ".join(COMMAND_HELP))
    op, args = words[0].lower(), words[1:]
    if op == "help":
        raise DirectorInputError(help_text(args[0] if args else None))
    if op not in COMMAND_HELP:
        raise DirectorInputError(f"unknown command {op!r}: one of " + ", ".join(COMMAND_HELP) + ", help")
    command: m.Command
    if op in ("start", "pause", "resume"):
        table = _table_option(args) if op != "start" else None
        reason = _reason(args, op)
        if op == "start":
            command = m.StartCommand(reason=reason)
        elif op == "pause":
            command = m.PauseCommand(table=table, reason=reason)
        else:
            command = m.ResumeCommand(table=table, reason=reason)
        what = "the tournament" if table is None else f"table {table}"
        summary = f"{op} {what} (reason: {reason})"
    elif op == "level":
        if not args:
            raise _usage(op)
        n = _int(args[0], "the level")
        if n < 1:
            raise DirectorInputError("levels are numbered from 1")
        reason = _reason(args[1:], op)
        command = m.SetLevelCommand(index=n - 1, reason=reason)
        summary = f"jump to level {n} (reason: {reason})"
    elif op == "schedule":
        if not args:
            raise _usage(op)
        levels = []
        for part in args[0].split(","):
            bits = part.split("/")
            if len(bits) not in (3, 4):
                raise DirectorInputError(f"not a level: {part!r} (use SB/BB/MINUTES, e.g. 100/200/20, "
                                         "or SB/BB/ANTE/MINUTES, e.g. 100/200/200/20)")
            given = [_int(b, "a schedule number") for b in bits]
            ante = given.pop(2) if len(given) == 4 else None
            sb, bb, minutes = given
            levels.append(m.ScheduleLevel(small_blind=sb, big_blind=bb, minutes=minutes, ante=ante))
        reason = _reason(args[1:], op)
        command = m.SetScheduleCommand(levels=tuple(levels), reason=reason)
        summary = f"replace the schedule with {len(levels)} levels (reason: {reason})"
    elif op == "options":
        opts: dict[str, int | bool | str] = {}
        rest = list(args)
        numbers = {"action": "action_seconds", "bank": "time_bank_seconds", "grace": "reconnect_grace_seconds",
                   "minutes": "level_minutes", "hands": "hands_per_level"}
        while rest and "=" in rest[0]:
            key, _, value = rest.pop(0).partition("=")
            if key == "chat":
                if value not in ("on", "off"):
                    raise DirectorInputError("chat=on or chat=off")
                opts["chat"] = value == "on"
            elif key == "tv":
                opts["tv_table"] = 0 if value == "off" else _int(value, key)
            elif key == "tvdelay":
                opts["tv_delay_seconds"] = _int(value, key)
            elif key == "entries":
                opts["max_entries"] = _int(value, key)
            elif key == "reentry":
                opts["reentry_until_level"] = 0 if value == "late" else _int(value, key)
            elif key == "ante":
                if value not in ("on", "off"):
                    raise DirectorInputError("ante=on (the big blind posts an ante for the table) or ante=off")
                opts["big_blind_ante"] = value == "on"
            elif key == "ruleset":
                if value not in ("hickory", "standard"):
                    raise DirectorInputError("ruleset=hickory (every raise adds at least the big blind) "
                                             "or ruleset=standard (at least the largest raise this round)")
                opts["ruleset"] = value
            elif key in numbers:
                opts[numbers[key]] = _int(value, key)
            else:
                raise DirectorInputError(
                    f"unknown option {key!r}: action, bank, grace, chat, ruleset, minutes, hands, ante, "
                    "entries, reentry, tv or tvdelay")
        if "level_minutes" in opts and "hands_per_level" in opts:
            raise DirectorInputError("levels go by minutes or by hands: give minutes=N or hands=N, not both")
        if not opts:
            raise _usage(op)
        reason = _reason(rest, op)
        command = m.SetOptionsCommand(reason=reason, **opts)  # type: ignore[arg-type]
        shown = ", ".join(f"{k}={v}" for k, v in opts.items())
        summary = f"set {shown} (reason: {reason})"
    elif op == "deadline":
        if not args:
            raise _usage(op)
        deadline = _deadline(args[0])
        reason = _reason(args[1:], op)
        command = m.SetDeadlineCommand(deadline=deadline, reason=reason)
        summary = f"{'clear the deadline' if deadline is None else 'end by ' + deadline} (reason: {reason})"
    elif op == "break":
        if len(args) < 2:
            raise _usage(op)
        level = _int(args[0], "the level")
        minutes = _int(args[1], "the minutes")
        if level < 1:
            raise DirectorInputError("levels are numbered from 1: break LEVEL MINUTES REASON")
        reason = _reason(args[2:], op)
        command = m.SetBreakCommand(after_level=level, minutes=minutes, reason=reason)
        what = (f"remove the break after level {level}" if minutes == 0
                else f"a break of {minutes} min after level {level}")
        summary = f"{what} (reason: {reason})"
    elif op == "move":
        if len(args) < 2:
            raise _usage(op)
        pid, name = _player(args[0], lobby)
        table = _int(args[1], "the table")
        seat = None
        rest = args[2:]
        if rest and rest[0].isdigit():
            seat = int(rest.pop(0))
        reason = _reason(rest, op)
        command = m.MovePlayerCommand(player_id=pid, table=table, seat=seat, reason=reason)
        where = f"table {table}" + (f" seat {seat}" if seat is not None else "")
        summary = f"move {name} to {where} (reason: {reason})"
    elif op == "remove":
        if not args:
            raise _usage(op)
        pid, name = _player(args[0], lobby)
        reason = _reason(args[1:], op)
        command = m.RemovePlayerCommand(player_id=pid, reason=reason)
        summary = f"REMOVE {name} from the tournament (reason: {reason})"
    elif op == "chips":
        if len(args) < 2:
            raise _usage(op)
        pid, name = _player(args[0], lobby)
        amount = _int(args[1].replace(",", ""), "the chips")
        reason = _reason(args[2:], op)
        command = m.AdjustChipsCommand(player_id=pid, chips=amount, reason=reason)
        summary = f"set {name}'s stack to {amount:,} (reason: {reason})"
    elif op == "announce":
        text_ = " ".join(args).strip()
        if not text_:
            raise _usage(op)
        command = m.AnnounceCommand(text=text_[:500], reason="announcement")
        summary = f"announce {text_!r}"
    elif op == "rule":
        if len(args) < 2:
            raise _usage(op)
        target, decision = args[0].lower(), " ".join(args[1:])[:500]
        if target == "all":
            command = m.RuleCommand(decision=decision, reason="a ruling for everyone")
            summary = f"rule for everyone: {decision}"
        elif target.startswith("table="):
            table = _int(target[6:], "the table")
            command = m.RuleCommand(table=table, decision=decision, reason=f"a ruling at table {table}")
            summary = f"rule at table {table}: {decision}"
        else:
            call = _int(target.lstrip("#"), "the call's number (or table=N, or all)")
            command = m.RuleCommand(call_id=call, decision=decision, reason=f"floor call {call}")
            summary = f"answer floor call {call}: {decision}"
    elif op == "void":
        if not args:
            raise _usage(op)
        table = _int(args[0], "the table")
        reason = _reason(args[1:], op)
        command = m.VoidHandCommand(table=table, reason=reason)
        summary = f"VOID the hand in play at table {table}, every bet back (reason: {reason})"
    elif op == "late":
        if not args:
            raise _usage(op)
        until = None if args[0].lower() in ("off", "none", "close") else _int(args[0], "the level")
        if until is not None and until < 1:
            raise DirectorInputError("levels are numbered from 1: late LEVEL REASON")
        reason = _reason(args[1:], op)
        command = m.LateRegistrationCommand(until_level=until, reason=reason)
        what = "close late registration" if until is None else f"take late entries through level {until}"
        summary = f"{what} (reason: {reason})"
    elif op == "award":
        if len(args) < 2:
            raise _usage(op)
        pid, name = _player(args[0], lobby)
        title = " ".join(args[1:])[:80]
        command = m.AwardCommand(title=title, player_id=pid, reason="the director's award")
        summary = f"award {title!r} to {name}"
    else:  # reveal
        command = m.RevealCommand(reason="the players check their decks")
        summary = "send the server seeds again"
    return command, summary


def _table_option(args: list[str]) -> int | None:
    """A leading ``table=N`` (taken off ``args``), or None for the whole tournament."""
    if args and args[0].lower().startswith("table="):
        return _int(args.pop(0)[6:], "the table")
    return None
