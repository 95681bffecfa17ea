"""Key bindings: keystrokes to protocol messages, from the legal actions the server sent.

``create_key_bindings(model, actions)`` builds every binding of the terminal client. The
action keys (f c r m, and 1-4 for the raise box's quick sizes) are active only while
``model.turn`` holds a ``your_turn`` not answered yet, and each one checks the turn's
``legal`` (the engine's ``LegalActions`` built from the server's message): a key for an
action the server did not offer does nothing but say why. The raise box checks the amount
against ``min_raise_to`` and ``max_raise_to`` before anything is sent.

Everything else (sit out, chat, history, help, the side panel, the director's command
line, quitting) changes ``actions.ui`` or sends a request through ``actions.send``.
"""

from __future__ import annotations

import os

from prompt_toolkit.document import Document
from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys

from client.model import ClientModel, PendingTurn, action_to_act
from client.model.log import chips
from client.model.replay import replay_frames
from client.model.sizing import all_in_is_the_only_way_on, quick_sizes, whole_chips
from client.tui.bottom import all_in_amount, is_my_turn
from client.tui.director import DirectorInputError, complete, parse_command
from client.tui.history import history_lines
from client.tui.layout import focus_screen
from client.tui.side_panel import panels_for
from client.tui.state import Actions, Confirm, InputMode, Overlay, Panel, PendingCommand, Tone
from poker.actions import Action, LegalActions
from protocol import messages as m

__all__ = ["QUEUED_LABELS", "QUEUED_TEXTS", "all_in_is_the_only_way_on", "create_key_bindings", "parse_raise",
           "quick_sizes"]

NOTICE_SECONDS = 6.0

QUEUED_LABELS = {"check_fold": "check/fold", "call_any": "call any"}
QUEUED_TEXTS = ("check/fold queued for your turn", "call any queued for your turn")
"""What k and K say when they queue; the notice goes once the queued action is played."""

QUIT_MID_HAND = (
    "You are in a hand: it plays on without you (the server checks, or folds, when your "
    "clock runs out) and your seat is kept; start hickory again to come back. Quit now"
)
"""What q asks during a hand: what happens to the seat and to the hand."""


# -- amounts ------------------------------------------------------------------------------


def parse_raise(text: str, legal: LegalActions, pot_total: int = 0) -> int:
    """The raise-to total typed in the raise box, or ValueError saying what is wrong.

    Accepts a whole number (``1200``, ``1,200``, ``1.2k``) or a quick size by name
    (``min``, ``half``, ``pot``, ``max``/``all``).
    """
    lo, hi = legal.min_raise_to, legal.max_raise_to
    word = "bet" if legal.is_bet else "raise to"
    if lo is None or hi is None:
        raise ValueError("you cannot bet or raise now")
    raw = text.strip().lower().replace(",", "").replace("_", "").replace(" ", "")
    if not raw:
        raise ValueError(f"type an amount to {word}: {chips(lo)} to {chips(hi)}")
    named = {label.split()[0]: amount for label, amount in quick_sizes(legal, pot_total)}
    aliases = {"min": "min", "half": "half", "pot": "pot", "max": "all", "all": "all", "allin": "all"}
    if raw in aliases:
        key = aliases[raw]
        return named.get(key, lo if key == "min" else hi)
    amount = whole_chips(raw, text, f"e.g. {lo}")
    if amount < lo:
        raise ValueError(f"{word} {chips(amount)} is below the minimum {chips(lo)}")
    if amount > hi:
        raise ValueError(f"{word} {chips(amount)} is over your all-in {chips(hi)}")
    return amount


# -- the bindings ---------------------------------------------------------------------------


def create_key_bindings(model: ClientModel, actions: Actions) -> KeyBindings:
    ui = actions.ui
    kb = KeyBindings()

    typing = Condition(lambda: ui.input_mode is not None)
    confirming = Condition(lambda: ui.pending is not None or ui.confirm is not None)
    idle = ~typing & ~confirming
    my_turn = idle & Condition(lambda: is_my_turn(model))
    player = Condition(lambda: model.me.role == "player")
    director = Condition(lambda: model.me.role == "director")
    history_open = idle & Condition(lambda: ui.overlay is Overlay.HISTORY)
    # The lobby scrolls as an overlay (l) and as the screen before a seat or after I am out.
    lobby_open = idle & Condition(
        lambda: ui.overlay is Overlay.LOBBY or (ui.overlay is None and model.table is None)
    )

    def notice(text: str, tone: Tone = Tone.INFO) -> None:
        ui.say(text, tone, actions.now() + NOTICE_SECONDS)

    def turn() -> PendingTurn:
        t = model.turn
        assert t is not None  # the my_turn filter checked it
        return t

    def act(action: Action) -> None:
        t = turn()
        msg = action_to_act(action, t.hand_no, t.msg.table)
        if actions.send(msg):
            t.acted = True
            ui.notice = None
        else:
            notice("not connected: nothing was sent", Tone.ERROR)

    def raise_action(legal: LegalActions, amount: int) -> Action:
        return Action.bet(amount) if legal.is_bet else Action.raise_to(amount)

    def pot_total() -> int:
        return model.table.pot_total if model.table is not None else 0

    # ---- acting --------------------------------------------------------------------------

    @kb.add("f", filter=my_turn)
    def _fold(event: KeyPressEvent) -> None:
        if turn().legal.fold:
            act(Action.fold())
        else:
            notice("checking is free, so folding is not offered: press c to check")

    @kb.add("c", filter=my_turn)
    def _check_call(event: KeyPressEvent) -> None:
        legal = turn().legal
        if legal.check:
            act(Action.check())
        elif legal.call is not None:
            act(Action.call())
        else:
            notice("you cannot check or call now")

    def open_raise(index: int) -> None:
        legal = turn().legal
        lo, hi = legal.min_raise_to, legal.max_raise_to
        if lo is None or hi is None:
            notice("you cannot bet or raise now" + ("; c calls" if legal.call is not None else ""))
            return
        if lo == hi:
            notice(f"your stack only allows all in ({chips(hi)}): press m")
            return
        sizes = quick_sizes(legal, pot_total())
        index = min(index, len(sizes) - 1)
        ui.quick_index = index
        label, amount = sizes[index]
        ui.open_input(InputMode.RAISE, str(amount), prefilled=True)
        ui.quick_label = label
        notice(f"{label} {chips(amount)} · Enter sends · Tab: min, half pot, pot, all in · Esc cancels")
        focus_input(actions)

    @kb.add("r", filter=my_turn)
    def _raise(event: KeyPressEvent) -> None:
        open_raise(0)

    for i, key in enumerate("1234"):

        @kb.add(key, filter=my_turn)
        def _quick(event: KeyPressEvent, i: int = i) -> None:
            open_raise(i)

    # All in is m ("max"), away from q and s; it asks first unless it is the only way on.
    @kb.add("m", filter=my_turn)
    def _all_in(event: KeyPressEvent) -> None:
        t = turn()
        amount = all_in_amount(t)
        if amount is None:
            notice("nothing to go all in for: you can only check")
            return
        if ui.confirm_all_in and not all_in_is_the_only_way_on(t.legal):
            ui.confirm = Confirm(what="all_in", summary=f"All in for {chips(amount)}",
                                 hand_no=t.hand_no)
            return
        act(Action.all_in())

    # ---- pre-actions: queued before my turn, dropped when the bet changes ----------------

    waiting = idle & player & Condition(
        lambda: model.table is not None and model.table.street is not None and not is_my_turn(model)
        and model.my_seat is not None and model.my_seat.in_hand and not model.my_seat.folded
    )

    def queue(what: str) -> None:
        t = model.table
        if ui.pre_action == what:
            ui.pre_action = None
            notice("pre-action cleared")
            return
        ui.pre_action = what
        ui.pre_action_bet = t.current_bet if t is not None else 0
        notice(QUEUED_TEXTS[0] if what == "check_fold" else QUEUED_TEXTS[1])

    @kb.add("k", filter=my_turn)
    @kb.add("K", filter=my_turn)
    def _pre_action_on_my_turn(event: KeyPressEvent) -> None:
        # k and K queue a choice for a turn to come; on my own turn they would do nothing.
        legal = turn().legal
        now_keys = "c checks" if legal.check else "c calls, f folds"
        notice(f"it is your turn now: {now_keys} (k and K queue a choice before your turn)")

    @kb.add("k", filter=waiting)
    def _check_fold(event: KeyPressEvent) -> None:
        queue("check_fold")

    @kb.add("K", filter=waiting)
    def _call_any(event: KeyPressEvent) -> None:
        queue("call_any")

    # ---- the text box ----------------------------------------------------------------------

    @kb.add("enter", filter=typing, eager=True)
    def _enter(event: KeyPressEvent) -> None:
        text = ui.buffer.text
        mode = ui.input_mode
        if mode is InputMode.RAISE:
            t = model.turn
            if t is None or not is_my_turn(model):
                close_input(actions)
                notice("your turn is over: nothing was sent")
                return
            try:
                amount = parse_raise(text, t.legal, pot_total())
            except ValueError as exc:
                notice(str(exc), Tone.ERROR)
                return
            close_input(actions)
            act(raise_action(t.legal, amount))
        elif mode is InputMode.CHAT:
            close_input(actions)
            send_chat(text)
        elif mode is InputMode.DIRECTOR:
            words = text.split()
            if words and words[0].lower() in ("help", "?"):
                close_input(actions)
                ui.help_topic = words[1].lower() if len(words) > 1 else None
                ui.overlay = Overlay.HELP
                return
            try:
                command, summary = parse_command(text, model.lobby)
            except DirectorInputError as exc:
                notice(str(exc), Tone.ERROR)
                return
            close_input(actions)
            ui.pending = PendingCommand(command=command, summary=summary)

    @kb.add("escape", filter=typing, eager=True)
    @kb.add("c-g", filter=typing)
    def _cancel_input(event: KeyPressEvent) -> None:
        close_input(actions)
        ui.notice = None

    @kb.add("tab", filter=typing & Condition(lambda: ui.input_mode is InputMode.RAISE), eager=True)
    @kb.add("s-tab", filter=typing & Condition(lambda: ui.input_mode is InputMode.RAISE), eager=True)
    def _cycle_size(event: KeyPressEvent) -> None:
        t = model.turn
        if t is None:
            return
        sizes = quick_sizes(t.legal, pot_total())
        if not sizes:
            return
        step = -1 if event.key_sequence[0].key == Keys.BackTab else 1
        ui.quick_index = (ui.quick_index + step) % len(sizes)
        label, amount = sizes[ui.quick_index]
        ui.open_input(InputMode.RAISE, str(amount), prefilled=True)
        ui.quick_label = label
        notice(f"{label}: {chips(amount)}")

    @kb.add("tab", filter=typing & Condition(lambda: ui.input_mode is InputMode.DIRECTOR), eager=True)
    def _complete(event: KeyPressEvent) -> None:
        text = ui.buffer.text
        options = complete(text, model.lobby)
        if not options:
            notice("nothing to complete here")
            return
        head, _, last = text.rpartition(" ")
        common = os.path.commonprefix([o.lower() for o in options])
        word = options[0] if len(options) == 1 else (common if len(common) > len(last) else last)
        new = (head + " " if head else "") + word + (" " if len(options) == 1 else "")
        ui.buffer.set_document(Document(new, len(new)), bypass_readonly=True)
        if len(options) > 1:
            notice(" ".join(options))

    prefilled = typing & Condition(lambda: ui.input_mode is InputMode.RAISE and ui.prefilled)

    for digit in "0123456789":

        @kb.add(digit, filter=prefilled, eager=True)
        def _replace(event: KeyPressEvent, digit: str = digit) -> None:
            # Typing an amount replaces the suggested one instead of appending to it.
            ui.open_input(InputMode.RAISE, digit)

    @kb.add("backspace", filter=prefilled, eager=True)
    def _clear(event: KeyPressEvent) -> None:
        ui.open_input(InputMode.RAISE, "")

    def send_chat(text: str) -> None:
        text = text.strip()
        if not text:
            return
        if text.startswith("/director"):
            body = text[len("/director"):].strip() or "please come to my table"
            actions.send(m.CallDirector(message=body[:500]))
            notice("the director has been called")
            return
        scope: m.Scope = "table" if model.table is not None and model.me.role == "player" else "lobby"
        if text.startswith("/lobby"):
            scope, text = "lobby", text[len("/lobby"):].strip()
            if not text:
                return
        actions.send(m.Chat(scope=scope, text=text[:500]))

    # ---- director confirmations ----------------------------------------------------------

    @kb.add("y", filter=confirming)
    @kb.add("enter", filter=confirming)
    def _confirm(event: KeyPressEvent) -> None:
        step = ui.confirm
        if step is not None:
            ui.confirm = None
            if step.what == "quit":
                actions.quit()
            elif step.what == "reenter":
                if actions.send(m.Reenter()):
                    notice("re-entry asked: you get a seat and a new stack")
                else:
                    notice("not connected: nothing was sent", Tone.ERROR)
            elif step.what == "all_in":
                t = model.turn
                if t is None or not is_my_turn(model) or t.hand_no != step.hand_no:
                    notice("your turn is over: nothing was sent")
                else:
                    act(Action.all_in())
            return
        pending = ui.pending
        ui.pending = None
        if pending is None:
            return
        if actions.send(m.DirectorCommand(command=pending.command)):
            notice(f"sent: {pending.summary}")
        else:
            notice("not connected: nothing was sent", Tone.ERROR)

    @kb.add("n", filter=confirming)
    @kb.add("escape", filter=confirming, eager=True)
    def _decline(event: KeyPressEvent) -> None:
        ui.pending = None
        ui.confirm = None
        notice("cancelled")

    # ---- anytime ---------------------------------------------------------------------------

    @kb.add("s", filter=idle & player)
    def _sit_out(event: KeyPressEvent) -> None:
        me = model.my_seat
        if me is not None and me.sitting_out:
            actions.send(m.ImBack())
            notice("welcome back: you play from the next hand")
        else:
            actions.send(m.SitOut())
            notice("sitting out: the server checks or folds for you; press s when you are back")

    @kb.add("t", filter=idle)
    def _chat(event: KeyPressEvent) -> None:
        ui.open_input(InputMode.CHAT)
        focus_input(actions)

    @kb.add(":", filter=idle & director)
    def _director(event: KeyPressEvent) -> None:
        ui.open_input(InputMode.DIRECTOR)
        focus_input(actions)

    watcher = Condition(lambda: model.me.role in ("spectator", "director"))

    @kb.add("]", filter=idle & watcher)
    @kb.add("[", filter=idle & watcher)
    def _other_table(event: KeyPressEvent) -> None:
        tables = sorted(t.table for t in model.lobby.tables) if model.lobby is not None else []
        if not tables:
            notice("no tables in play yet")
            return
        current = model.table.table if model.table is not None else None
        step = 1 if event.key_sequence[0].key == "]" else -1
        i = tables.index(current) + step if current in tables else 0
        table = tables[i % len(tables)]
        actions.send(m.SnapshotRequest(table=table))
        notice(f"watching table {table}")

    @kb.add("h", filter=idle)
    def _history(event: KeyPressEvent) -> None:
        if ui.overlay is Overlay.HISTORY:
            ui.overlay = None
            return
        ui.overlay = Overlay.HISTORY
        ui.history_index = -1
        ui.history_scroll = 0
        ui.replay_step = None
        actions.send(m.HistoryRequest(last=20))

    @kb.add("enter", filter=history_open)
    def _replay(event: KeyPressEvent) -> None:
        """Replay the hand shown, step by step (Enter again, or Esc, goes back to it)."""
        if model.history is not None and model.history.hands:
            ui.replay_step = 0 if ui.replay_step is None else None

    @kb.add("i", filter=idle)
    def _stats(event: KeyPressEvent) -> None:
        ui.overlay = None if ui.overlay is Overlay.STATS else Overlay.STATS

    @kb.add("left", filter=history_open)
    @kb.add("right", filter=history_open)
    def _browse(event: KeyPressEvent) -> None:
        n = len(model.history.hands) if model.history is not None else 0
        if n and ui.replay_step is not None and model.history is not None:
            steps = len(replay_frames(model.history.hands[ui.history_hand(n)]))
            move = -1 if event.key_sequence[0].key == Keys.Left else 1
            ui.replay_step = max(0, min(steps - 1, ui.replay_step + move))
        elif n:
            idx = ui.history_hand(n)
            step = -1 if event.key_sequence[0].key == Keys.Left else 1
            ui.history_index = max(0, min(n - 1, idx + step))
            ui.history_scroll = 0

    @kb.add("up", filter=history_open)
    @kb.add("down", filter=history_open)
    @kb.add("pageup", filter=history_open)
    @kb.add("pagedown", filter=history_open)
    def _scroll(event: KeyPressEvent) -> None:
        steps: dict[Keys | str, int] = {Keys.Up: -1, Keys.Down: 1, Keys.PageUp: -10, Keys.PageDown: 10}
        hands = model.history.hands if model.history is not None else ()
        if not hands:
            return
        idx = ui.history_hand(len(hands))
        last = max(0, len(history_lines(hands[idx], ui.ascii)) - 5)
        ui.history_scroll = max(0, min(last, ui.history_scroll + steps[event.key_sequence[0].key]))

    @kb.add("up", filter=lobby_open)
    @kb.add("down", filter=lobby_open)
    @kb.add("pageup", filter=lobby_open)
    @kb.add("pagedown", filter=lobby_open)
    def _scroll_lobby(event: KeyPressEvent) -> None:
        steps: dict[Keys | str, int] = {Keys.Up: -1, Keys.Down: 1, Keys.PageUp: -10, Keys.PageDown: 10}
        # The render keeps it within the list (it knows how many rows fit).
        ui.lobby_scroll = max(0, ui.lobby_scroll + steps[event.key_sequence[0].key])

    @kb.add("?", filter=idle)
    def _help(event: KeyPressEvent) -> None:
        ui.help_topic = None
        ui.overlay = None if ui.overlay is Overlay.HELP else Overlay.HELP

    @kb.add("l", filter=idle)
    def _lobby(event: KeyPressEvent) -> None:
        if ui.overlay is Overlay.LOBBY:
            ui.overlay = None
            return
        ui.overlay = Overlay.LOBBY
        ui.lobby_scroll = 0
        actions.send(m.LobbyRequest())

    @kb.add("u", filter=idle)
    def _rules(event: KeyPressEvent) -> None:
        if ui.overlay is Overlay.RULES:
            ui.overlay = None
            return
        ui.overlay = Overlay.RULES
        actions.send(m.LobbyRequest())  # the rules come with the lobby

    @kb.add("tab", filter=idle)
    def _panel(event: KeyPressEvent) -> None:
        panels = panels_for(model)
        ui.panel = panels[(panels.index(ui.panel) + 1) % len(panels)] if ui.panel in panels else panels[0]
        if ui.panel is Panel.STANDINGS:
            actions.send(m.StandingsRequest())

    @kb.add("escape", filter=idle, eager=True)
    def _close(event: KeyPressEvent) -> None:
        if ui.overlay is Overlay.HISTORY and ui.replay_step is not None:
            ui.replay_step = None  # out of the replay, back to the hand in words
            return
        ui.overlay = None
        ui.notice = None

    def in_a_hand() -> bool:
        me = model.my_seat
        t = model.table
        return (
            model.me.role == "player" and t is not None and t.street is not None
            and me is not None and me.in_hand and not me.folded
        )

    @kb.add("q", filter=idle)
    def _quit_asking(event: KeyPressEvent) -> None:
        if ui.confirm_quit and (in_a_hand() or ui.practice):
            what = QUIT_MID_HAND if in_a_hand() else "Quit"
            if ui.practice:
                what = "Quit: this ends the practice tournament"
            ui.confirm = Confirm(what="quit", summary=what)
            return
        actions.quit()

    @kb.add("c-c")
    @kb.add("<sigint>")
    def _quit(event: KeyPressEvent) -> None:
        actions.quit()

    return kb


def focus_input(actions: Actions) -> None:
    """Put the cursor in the text box (a no-op outside a running Application)."""
    from prompt_toolkit.application.current import get_app_or_none

    app = get_app_or_none()
    if app is None:
        return
    try:
        app.layout.focus(actions.ui.buffer)
    except ValueError:
        pass


def close_input(actions: Actions) -> None:
    actions.ui.close_input()
    from prompt_toolkit.application.current import get_app_or_none

    app = get_app_or_none()
    if app is not None:
        focus_screen(app)
