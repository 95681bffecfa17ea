"""The verifiable deck: commit, contribute, reveal (the scheme of docs/fairness.md).

Before a draw (a hand's deck, or the tournament's seat draw) the server picks a fresh
32-byte ``server_seed`` and publishes ``commitment(draw, server_seed)``. The players then
send seeds of their own; the server publishes the list it received, and the draw is
derived from the server seed and that list:

    key    = HMAC-SHA-256(server_seed, key_message(draw, seeds))
    block  = HMAC-SHA-256(key, uint64_be(counter))   counter = 0, 1, 2, ...
    draws  = the blocks cut into big-endian uint32 words, in order
    j < n  = the first word w with w < floor(2^32 / n) * n, then w mod n  (rejection sampling)
    deck   = Fisher-Yates over the base order 2c 2d 2h 2s 3c ... As (card = rank * 4 + suit):
             for i from 51 down to 1, swap position i with position j drawn below i + 1

so once the server seed is revealed anyone can recompute the deck, and nobody could pick
it: the server fixed its seed before it saw any player's seed, and the players' seeds
change the deck completely. Every field of every hashed message is length-prefixed (or of
fixed width), so no two different inputs hash the same bytes.

The deck is dealt as ``poker.hand`` reads it (``deal_layout``): hole cards one at a time
from the left of the button (the player ``p`` places from the button's left gets
``deck[p]`` and ``deck[n + p]``), then a burn before each of the flop, the turn and the
river.

Pure: hashlib and hmac only; the server seed and the players' seeds are inputs.
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections.abc import Sequence

import attrs

from .cards import Card, shuffled_deck

DOMAIN = "hickory-fairdeck-v1"
"""Names the scheme and its version in every hashed message."""
SERVER_SEED_BYTES = 32
MIN_CLIENT_SEED_BYTES = 16
MAX_CLIENT_SEED_BYTES = 32

DECK = "deck"
"""A hand's deck: ``table`` and ``number`` (the n-th hand dealt at that table)."""
SEATING = "seating"
"""The seat draw at the start and every later draw of the tournament (balancing, breaking
tables): ``table`` 0 and ``number`` 0; the players' seeds are listed by player id."""
KINDS = (DECK, SEATING)

_WORD = 1 << 32
_WORDS = struct.Struct(">8I")  # a block as eight big-endian 32-bit words


def _field(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def _text(text: str) -> bytes:
    return _field(text.encode())


def _uint(n: int) -> bytes:
    if not 0 <= n < 1 << 64:
        raise ValueError(f"{n} does not fit an unsigned 64-bit field")
    return n.to_bytes(8, "big")


@attrs.frozen(kw_only=True)
class Draw:
    """Which draw a commitment is for: the scheme's public inputs besides the seeds.

    ``tournament`` is the tournament's id (random, fixed at its creation), so no two
    tournaments ever share a draw; ``table`` and ``number`` tell the draws of one apart.
    """

    kind: str
    tournament: str
    table: int
    number: int

    def __attrs_post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown draw kind {self.kind!r} (expected one of {', '.join(KINDS)})")

    def header(self) -> bytes:
        return _text(self.kind) + _text(self.tournament) + _uint(self.table) + _uint(self.number)


@attrs.frozen(kw_only=True)
class Contribution:
    """One player's place in the seed list: their seed, or None if none arrived in time.

    ``seat`` is the seat at the table (0 in the seat draw, where nobody has one yet);
    ``player_id`` the protocol's player id. The list is in seat order for a hand and in
    registration order for the seat draw.
    """

    seat: int
    player_id: int
    seed: bytes | None


def commitment(draw: Draw, server_seed: bytes) -> bytes:
    """SHA-256 over the draw and the server seed: published before any player's seed."""
    check_server_seed(server_seed)
    return hashlib.sha256(_text(DOMAIN + "/commit") + draw.header() + _field(server_seed)).digest()


def key_message(draw: Draw, seeds: Sequence[Contribution]) -> bytes:
    """Every public input of the draw, unambiguously: the draw, then each listed seat,
    player and seed (a missing seed is a zero byte, a present one a one byte and the seed)."""
    parts = [_text(DOMAIN + "/key"), draw.header(), _uint(len(seeds))]
    for c in seeds:
        parts.append(_uint(c.seat) + _uint(c.player_id))
        parts.append(b"\x00" if c.seed is None else b"\x01" + _field(c.seed))
    return b"".join(parts)


def draw_key(draw: Draw, server_seed: bytes, seeds: Sequence[Contribution]) -> bytes:
    check_server_seed(server_seed)
    for c in seeds:
        if c.seed is not None:
            check_client_seed(c.seed)
    return hmac.digest(server_seed, key_message(draw, seeds), "sha256")


def check_server_seed(seed: bytes) -> None:
    if len(seed) != SERVER_SEED_BYTES:
        raise ValueError(f"a server seed is {SERVER_SEED_BYTES} bytes, not {len(seed)}")


def check_client_seed(seed: bytes) -> None:
    if not MIN_CLIENT_SEED_BYTES <= len(seed) <= MAX_CLIENT_SEED_BYTES:
        raise ValueError(
            f"a player's seed is {MIN_CLIENT_SEED_BYTES} to {MAX_CLIENT_SEED_BYTES} bytes, not {len(seed)}"
        )


class DrawStream:
    """Unbiased numbers from the HMAC counter stream of one key: an RNG for the shuffle
    (``poker.cards.shuffled_deck``) and for the tournament's seating, which only ever ask
    for ``randrange(stop)``.

    ``words`` counts the 32-bit words used (rejections included), for the tests.
    """

    def __init__(self, key: bytes) -> None:
        if len(key) != 32:
            raise ValueError("a draw key is 32 bytes")
        self._key = key
        self._counter = 0
        self._words: list[int] = []  # the current block's words not used yet, last first
        self.words = 0

    def block(self, counter: int) -> bytes:
        return hmac.digest(self._key, _uint(counter), "sha256")

    def word(self) -> int:
        """The next big-endian 32-bit word of the stream."""
        words = self._words
        if not words:
            words.extend(reversed(_WORDS.unpack(self.block(self._counter))))
            self._counter += 1
        self.words += 1
        return words.pop()

    def randrange(self, stop: int, /) -> int:
        """A number in ``range(stop)``, each equally likely: words at or above the largest
        multiple of ``stop`` below 2^32 are thrown away (no modulo bias)."""
        if not 0 < stop <= _WORD:
            raise ValueError(f"randrange({stop}): the stream draws below 1 to 2^32")
        limit = _WORD - _WORD % stop
        while True:
            w = self.word()
            if w < limit:
                return w % stop


def derive_deck(draw: Draw, server_seed: bytes, seeds: Sequence[Contribution]) -> list[Card]:
    """The deck the scheme gives: Fisher-Yates over the base order, driven by the stream."""
    return shuffled_deck(DrawStream(draw_key(draw, server_seed, seeds)))


def draw_stream(draw: Draw, server_seed: bytes, seeds: Sequence[Contribution]) -> DrawStream:
    """The stream for a draw that is not a deck (the seat draw, balancing, table breaks)."""
    return DrawStream(draw_key(draw, server_seed, seeds))


# -- the hash chain over finished hands ------------------------------------------------------------


def chain_start(tournament: str) -> bytes:
    """The chain's value before the first hand: bound to the tournament."""
    return hashlib.sha256(_text(DOMAIN + "/chain") + _text(tournament)).digest()


def chain_link(previous: bytes, record_digest: bytes) -> bytes:
    """The chain after one more hand, whose record hashes to ``record_digest``."""
    return hashlib.sha256(previous + record_digest).digest()


# -- the deal order -----------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class Layout:
    """Where each card of a deck goes in a hand (as ``poker.hand.Hand`` deals it)."""

    hole: dict[int, tuple[Card, Card]]  # seat -> its two hole cards
    burns: tuple[Card, Card, Card]
    board: tuple[Card, Card, Card, Card, Card]  # flop, turn, river


def deal_order(seats: Sequence[int], button: int) -> list[int]:
    """The seats dealt in, from the left of the button round to the button."""
    ordered = sorted(seats)
    if button not in ordered:
        raise ValueError(f"the button seat {button} is not dealt in")
    b = ordered.index(button) + 1
    return ordered[b:] + ordered[:b]


def deal_layout(deck: Sequence[Card], seats: Sequence[int], button: int) -> Layout:
    """The hole cards, burns and board ``deck`` gives the players in ``seats``.

    With ``n`` players: ``deck[p]`` and ``deck[n + p]`` to the player ``p`` places left of
    the button (from 0), then burn ``deck[2n]``, flop ``deck[2n+1 : 2n+4]``, burn
    ``deck[2n+4]``, turn ``deck[2n+5]``, burn ``deck[2n+6]``, river ``deck[2n+7]``.
    """
    order = deal_order(seats, button)
    n = len(order)
    hole = {seat: (deck[p], deck[n + p]) for p, seat in enumerate(order)}
    at = 2 * n
    burns = (deck[at], deck[at + 4], deck[at + 6])
    board = (deck[at + 1], deck[at + 2], deck[at + 3], deck[at + 5], deck[at + 7])
    return Layout(hole=hole, burns=burns, board=board)
