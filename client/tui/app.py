"""The full-screen prompt_toolkit Application of the terminal client.

``create_application`` puts the layout (``client.tui.layout``), the key bindings
(``client.tui.keys``) and the colours together. It knows nothing of the network: it reads
a ``ClientModel`` that something else keeps up to date and sends through an ``Actions``
object. ``client.cli`` connects it to a ``ClientSession`` running in Trio guest mode; the
tests connect it to a fake that records what would have been sent.

``note_server_message`` turns what the server says to this client alone (a refused
request, an announcement) into the notice on the bottom line.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output
from prompt_toolkit.styles import Style

from client.model import ClientModel, action_to_act
from client.model.log import chips, ruling_where
from client.tui.keys import NOTICE_SECONDS, QUEUED_LABELS, QUEUED_TEXTS, create_key_bindings
from client.tui.layout import create_layout
from client.tui.state import Actions, Confirm, Tone, UiState
from poker.actions import Action
from protocol import messages as m

__all__ = ["STYLE", "create_application", "note_server_message", "turn_bell"]

STYLE = Style.from_dict(
    {
        "header": "reverse",
        "header.figures": "bg:#303030 #e0e0e0",
        "seat.winner": "bg:#2e5e2e #ffffff bold",
        "seat.won": "#ffd700",
        "winner": "#ffd700",
        "title": "bold",
        "dim": "#888888",
        "frame": "#666666",
        "error": "#ff5555",
        "notice": "#55ffff",
        "confirm": "#000000 bg:#ffff55",
        "hints": "#888888",
        "prompt": "#ffff55",
        "banner": "#000000 bg:#ffff55",
        "stale": "#666666",
        "card.red": "#dd0000",
        "card.black": "",
        "card.face": "bg:#eeeeee #000000",
        "card.face card.red": "bg:#eeeeee #cc0000",
        "card.empty": "#555555",
        "card.back": "#4466aa",
        "card.big.frame": "#aaaaaa",
        "card.big": "bg:#eeeeee #000000",
        "card.big card.red": "bg:#eeeeee #cc0000",
        "seat": "",
        "seat.me": "bold",
        "seat.toact": "reverse bold",
        "seat.inactive": "#777777",
        "seat.empty": "#555555",
        "seat.marker": "bold",
        "seat.status": "#ff8800",
        "seat.folded": "#777777",
        "seat.bet": "#ffff55",
        "seat.last": "#55ffff",
        "seat.shown": "#55ff55",
        "button": "bold #000000 bg:#ffffff",
        "blind": "#55ffff",
        "street": "bold",
        "pot": "#55ff55 bold",
        "pot.carried": "#55ff55",
        "pot.total": "#55ff55",
        "handname": "#55ff55",
        "key": "bold #ffff55",
        "keylabel": "",
        "yourturn": "#55ff55",
        "clock": "#55ff55",
        "clock.bank": "#ffaa00",
        "clock.urgent": "#ff5555",
        "clock.empty": "#444444",
        "log": "",
        "log.hand": "#888888",
        "log.win": "#55ff55",
        "announcement": "#ff55ff bold",
        "chat": "#55ffff",
        "chat.director": "#ff55ff bold reverse",
        "tab": "#888888",
        "tab.active": "reverse",
        "standing.me": "bold #ffff55",
        "help.section": "underline",
        "lobby.state": "#55ff55",
    }
)


def create_application(
    model: ClientModel,
    actions: Actions,
    clock: Callable[[], float],
    *,
    input: Input | None = None,
    output: Output | None = None,
    refresh_interval: float | None = 0.25,
) -> Application[None]:
    """The client's Application over ``model``; ``clock`` is the clock ``now`` is read from.

    ``refresh_interval`` redraws the screen that often so the action clock and the level
    clock count down between messages (None in tests: they redraw when they ask).
    """
    app: Application[None] = Application(
        layout=create_layout(model, actions.ui, clock),
        key_bindings=create_key_bindings(model, actions),
        style=STYLE,
        full_screen=True,
        mouse_support=False,
        refresh_interval=refresh_interval,
        input=input,
        output=output,
    )
    # Esc closes things: do not wait half a second to see whether it starts an Alt key.
    app.ttimeoutlen = 0.05
    return app


def note_server_message(model: ClientModel, actions: Actions, msg: m.ServerMessage, now: float) -> None:
    """Show the player what the server refused and what the director announced.

    A refused action (``illegal_action``) gives the turn back, so the keys work again.
    """
    ui = actions.ui
    run_pre_action(model, actions, msg)
    if isinstance(msg, m.Error):
        text = msg.message
        if msg.code == "illegal_action" and model.turn is not None:
            model.turn.acted = False
            text = f"refused: {msg.message}"
        elif msg.code in ("not_your_turn", "stale_hand"):
            text = f"too late: {msg.message}"
        ui.say(text, Tone.ERROR, now + 2 * NOTICE_SECONDS)
    elif isinstance(msg, m.Announcement):
        why = f" ({msg.reason})" if msg.reason else ""
        ui.say(f"{msg.by}: {msg.text}{why}", Tone.INFO, now + 3 * NOTICE_SECONDS)
    elif isinstance(msg, m.DirectorCalled):
        where = f" at table {msg.table}" if msg.table is not None else ""
        number = f" (call {msg.call_id}: Tab shows the calls, rule {msg.call_id} ... answers)" if msg.call_id else ""
        ui.say(f"{msg.name}{where} calls the director: {msg.message}{number}", Tone.INFO, now + 3 * NOTICE_SECONDS)
    elif isinstance(msg, m.Ruling):
        ui.say(f"director rules{ruling_where(msg)}: {msg.decision}", Tone.INFO, now + 3 * NOTICE_SECONDS)
    elif isinstance(msg, m.ReentryOffer) and ui.confirm is None:
        # Out, and the director allows re-entry (issue 27): y sends reenter, n watches on.
        ui.confirm = Confirm(what="reenter", summary=f"Re-enter for {chips(msg.stack)}")
    elif isinstance(msg, m.TournamentFinished):
        place = model.my_place
        text = f"{msg.name} is over" + (f": you finished in place {place}" if place else "")
        ui.say(text, Tone.INFO, None)


def turn_bell(model: ClientModel, ui: UiState, msg: m.ServerMessage) -> bool:
    """Whether this message should ring the terminal bell: a ``your_turn`` for a decision
    not rung for yet. The server sends the same turn again after a lost line (a resync),
    and that must not ring a second time; the key is the table, hand, street and how many
    actions the hand has had."""
    if not isinstance(msg, m.YourTurn):
        return False
    t = model.table
    key = (msg.table, msg.hand_no, str(t.street) if t is not None else "", len(t.actions) if t is not None else 0)
    if key == ui.rung_for:
        return False
    ui.rung_for = key
    return True


def run_pre_action(model: ClientModel, actions: Actions, msg: m.ServerMessage) -> None:
    """A pre-action queued with k (check/fold) or K (call any) is played when my turn
    comes, unless the bet to match changed since it was queued, or the hand ended."""
    ui = actions.ui
    if ui.pre_action is None:
        return
    t = model.table
    if t is None or t.street is None or isinstance(msg, m.HandEnded | m.HandStarted):
        ui.pre_action = None
        if ui.notice is not None and ui.notice.text in QUEUED_TEXTS:
            ui.notice = None  # the hand it was queued for is over
        return
    if isinstance(msg, m.Action) and t.current_bet != ui.pre_action_bet:
        ui.pre_action = None
        ui.say("the bet changed: pre-action cleared", Tone.INFO, actions.now() + NOTICE_SECONDS)
        return
    turn = model.turn
    if not isinstance(msg, m.YourTurn) or turn is None or turn.acted:
        return
    what, ui.pre_action = ui.pre_action, None
    legal = turn.legal
    if legal.check:
        action = Action.check()
    elif what == "check_fold":
        action = Action.fold()
    elif legal.call is not None:
        action = Action.call()
    else:
        return
    if actions.send(action_to_act(action, turn.hand_no, turn.msg.table)):
        turn.acted = True
        # Say it fired, in place of "queued" (which would still be up on the next street).
        done = {"check": "checked", "fold": "folded", "call": "called"}[action.kind.value]
        ui.say(f"your queued {QUEUED_LABELS[what]} {done}", Tone.INFO, actions.now() + NOTICE_SECONDS)
