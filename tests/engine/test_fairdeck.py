"""The verifiable deck's derivation (poker/fairdeck.py) against the scheme in docs/fairness.md.

The fixed vectors are read from the doc itself, so the doc and the code cannot drift apart:
a third-party verifier written from the doc gets the same bytes. The chi-square test runs
the real derivation (HMAC key, counter stream, rejection sampling, Fisher-Yates) and a
deliberately biased variant through the card-by-position check of test_cards.py.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import attrs
import pytest

from poker.actions import Action
from poker.cards import FULL_DECK, cards_str, parse_cards, seeded_rng, shuffled_deck
from poker.fairdeck import (
    DECK,
    SEATING,
    Contribution,
    Draw,
    DrawStream,
    chain_link,
    chain_start,
    commitment,
    deal_layout,
    deal_order,
    derive_deck,
    draw_key,
    draw_stream,
    key_message,
)
from poker.hand import Hand

from .test_cards import CHI_SQUARE_BOUND, card_by_position_chi_square

DOC = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"
VECTORS = re.compile(r"<!-- BEGIN VECTORS -->\s*```json\n(.*?)```\s*<!-- END VECTORS -->", re.S)

SERVER_SEED = bytes(range(32))
TABLE_DRAW = Draw(kind=DECK, tournament="5eed", table=3, number=7)
SEEDS = (
    Contribution(seat=1, player_id=10, seed=b"\x01" * 16),
    Contribution(seat=4, player_id=11, seed=None),
    Contribution(seat=6, player_id=12, seed=b"\x02" * 32),
)


def vectors() -> list[dict[str, Any]]:
    found = VECTORS.search(DOC.read_text())
    assert found, "docs/fairness.md has no test vector block"
    data: list[dict[str, Any]] = json.loads(found.group(1))
    return data


def draw_of(v: dict[str, Any]) -> Draw:
    return Draw(kind=v["kind"], tournament=v["tournament"], table=v["table"], number=v["number"])


def seeds_of(v: dict[str, Any]) -> list[Contribution]:
    return [
        Contribution(seat=s["seat"], player_id=s["player_id"],
                     seed=None if s["seed"] is None else bytes.fromhex(s["seed"]))
        for s in v["seeds"]
    ]


# --- the documented vectors ---------------------------------------------------------------


def test_the_docs_hold_a_deck_vector_and_a_seating_vector() -> None:
    assert [v["kind"] for v in vectors()] == [DECK, SEATING]


@pytest.mark.parametrize("index", [0, 1])
def test_commitment_and_key_match_the_documented_vectors(index: int) -> None:
    v = vectors()[index]
    server_seed = bytes.fromhex(v["server_seed"])
    assert commitment(draw_of(v), server_seed).hex() == v["commit"]
    assert draw_key(draw_of(v), server_seed, seeds_of(v)).hex() == v["key"]


def test_the_deck_vector_gives_the_documented_bytes_deck_and_deal() -> None:
    v = vectors()[0]
    server_seed = bytes.fromhex(v["server_seed"])
    draw, seeds = draw_of(v), seeds_of(v)
    assert key_message(draw, seeds).hex() == v["key_message"]
    key = draw_key(draw, server_seed, seeds)
    assert DrawStream(key).block(0).hex() == v["block0"]
    deck = derive_deck(draw, server_seed, seeds)
    assert cards_str(deck) == v["deck"]
    layout = deal_layout(deck, [s.seat for s in seeds], v["button"])
    assert {str(s): cards_str(c) for s, c in layout.hole.items()} == v["hole"]
    assert cards_str(layout.burns) == v["burns"]
    assert cards_str(layout.board) == v["board"]


def test_the_seating_vector_gives_the_documented_draws() -> None:
    v = vectors()[1]
    stream = draw_stream(draw_of(v), bytes.fromhex(v["server_seed"]), seeds_of(v))
    assert [[stop, stream.randrange(stop)] for stop, _ in v["randrange"]] == v["randrange"]


# --- every input counts -------------------------------------------------------------------


def test_a_deck_is_a_permutation_and_the_same_inputs_give_the_same_deck() -> None:
    deck = derive_deck(TABLE_DRAW, SERVER_SEED, SEEDS)
    assert sorted(deck) == list(FULL_DECK)
    assert derive_deck(TABLE_DRAW, SERVER_SEED, SEEDS) == deck


def _variants() -> list[tuple[str, Draw, bytes, tuple[Contribution, ...]]]:
    d, s, seeds = TABLE_DRAW, SERVER_SEED, SEEDS
    out = [
        ("server seed", d, bytes([1]) + s[1:], seeds),
        ("tournament", attrs.evolve(d, tournament="5eee"), s, seeds),
        ("table", attrs.evolve(d, table=4), s, seeds),
        ("number", attrs.evolve(d, number=8), s, seeds),
        ("kind", attrs.evolve(d, kind=SEATING), s, seeds),
        ("seat order", d, s, (seeds[2], seeds[1], seeds[0])),
        ("a missing seed present", d, s, (seeds[0], attrs.evolve(seeds[1], seed=b"\x00" * 16), seeds[2])),
        ("a present seed missing", d, s, (attrs.evolve(seeds[0], seed=None), seeds[1], seeds[2])),
        ("a seat number", d, s, (attrs.evolve(seeds[0], seat=2), seeds[1], seeds[2])),
        ("a player id", d, s, (attrs.evolve(seeds[0], player_id=13), seeds[1], seeds[2])),
        ("one player dropped", d, s, seeds[:2]),
    ]
    for i, c in enumerate(seeds):
        if c.seed is not None:
            flipped = bytes([c.seed[0] ^ 1]) + c.seed[1:]
            changed = list(seeds)
            changed[i] = attrs.evolve(c, seed=flipped)
            out.append((f"one bit of seed {i}", d, s, tuple(changed)))
    return out


@pytest.mark.parametrize(("what", "draw", "server_seed", "seeds"), _variants(), ids=[v[0] for v in _variants()])
def test_the_deck_changes_when_any_one_input_changes(
    what: str, draw: Draw, server_seed: bytes, seeds: tuple[Contribution, ...]
) -> None:
    assert derive_deck(draw, server_seed, seeds) != derive_deck(TABLE_DRAW, SERVER_SEED, SEEDS)


def test_the_commitment_binds_the_seed_and_every_part_of_the_draw() -> None:
    base = commitment(TABLE_DRAW, SERVER_SEED)
    others = {
        commitment(TABLE_DRAW, bytes([9]) + SERVER_SEED[1:]),
        commitment(attrs.evolve(TABLE_DRAW, tournament="x"), SERVER_SEED),
        commitment(attrs.evolve(TABLE_DRAW, table=1), SERVER_SEED),
        commitment(attrs.evolve(TABLE_DRAW, number=1), SERVER_SEED),
        commitment(attrs.evolve(TABLE_DRAW, kind=SEATING), SERVER_SEED),
    }
    assert base not in others and len(others) == 5


def test_the_key_message_is_unambiguous() -> None:
    """Seeds that concatenate to the same bytes, or a tournament id that swallows the next
    field, still give different messages: every variable field carries its length."""
    a = [Contribution(seat=1, player_id=1, seed=b"\x05" * 16), Contribution(seat=2, player_id=2, seed=b"\x06" * 16)]
    b = [Contribution(seat=1, player_id=1, seed=b"\x05" * 16 + b"\x06" * 16), Contribution(seat=2, player_id=2, seed=None)]
    assert key_message(TABLE_DRAW, a) != key_message(TABLE_DRAW, b)
    assert key_message(attrs.evolve(TABLE_DRAW, tournament="ab"), []) != key_message(
        attrs.evolve(TABLE_DRAW, tournament="a"), [])


@pytest.mark.parametrize("bad", [b"", b"\x00" * 15, b"\x00" * 33])
def test_seeds_of_the_wrong_length_are_refused(bad: bytes) -> None:
    with pytest.raises(ValueError, match="16 to 32 bytes"):
        derive_deck(TABLE_DRAW, SERVER_SEED, [Contribution(seat=1, player_id=1, seed=bad)])
    with pytest.raises(ValueError, match="server seed is 32 bytes"):
        commitment(TABLE_DRAW, bad)


# --- rejection sampling ---------------------------------------------------------------------


class Scripted(DrawStream):
    """A stream whose words are given: to watch which words randrange keeps."""

    def __init__(self, words: list[int]) -> None:
        super().__init__(bytes(32))
        self.script = list(words)

    def word(self) -> int:
        self.words += 1
        return self.script.pop(0)


def test_randrange_rejects_the_words_that_would_bias_the_modulo() -> None:
    # 2^32 = 82595524 * 52 + 48: the top 48 words would favour 0..47, so they are redrawn.
    limit = (1 << 32) - (1 << 32) % 52
    stream = Scripted([(1 << 32) - 1, limit, limit - 1])
    assert stream.randrange(52) == (limit - 1) % 52
    assert stream.words == 3
    assert Scripted([0]).randrange(52) == 0
    # A power of two never rejects.
    assert Scripted([(1 << 32) - 1]).randrange(64) == 63


def test_the_stream_reads_big_endian_words_from_consecutive_hmac_blocks() -> None:
    key = bytes(range(32))
    stream = DrawStream(key)
    words = [stream.word() for _ in range(16)]
    expected = stream.block(0) + stream.block(1)
    assert words == [int.from_bytes(expected[i : i + 4], "big") for i in range(0, 64, 4)]


def test_the_deck_is_fisher_yates_over_the_stream() -> None:
    key = draw_key(TABLE_DRAW, SERVER_SEED, SEEDS)
    assert derive_deck(TABLE_DRAW, SERVER_SEED, SEEDS) == shuffled_deck(DrawStream(key))


# --- the deal order is the engine's -----------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 6, 9])
def test_deal_layout_matches_how_the_engine_deals(players: int) -> None:
    rng = seeded_rng(players)
    for _ in range(20):
        seats = sorted(rng.sample(range(1, 10), players))
        button = rng.choice(seats)
        deck = shuffled_deck(rng)
        hand = Hand(hand_no=1, seats=[(s, 1000) for s in seats], button=button,
                    small_blind=5, big_blind=10, deck=deck)
        layout = deal_layout(deck, seats, button)
        assert {s: hand.hole_cards(s) for s in seats} == layout.hole
        while not hand.is_over:  # everyone checks or calls down: the whole board is dealt
            legal = hand.legal_actions()
            assert legal is not None
            hand.act(legal.seat, Action.check() if legal.check else Action.call())
        assert tuple(hand.board) == layout.board
        dealt = set(c for pair in layout.hole.values() for c in pair) | set(layout.board) | set(layout.burns)
        assert len(dealt) == 2 * players + 8


def test_deal_layout_names_the_documented_positions() -> None:
    deck = parse_cards(cards_str(FULL_DECK))
    layout = deal_layout(deck, [2, 5, 7], button=5)
    # Left of the button (seat 5) is seat 7, then seat 2, then the button.
    assert layout.hole == {7: (0, 3), 2: (1, 4), 5: (2, 5)}
    assert layout.burns == (6, 10, 12)
    assert layout.board == (7, 8, 9, 11, 13)


# --- the distribution -------------------------------------------------------------------------

DECKS = 40_000


def test_the_real_derivation_puts_every_card_in_every_position_equally_often() -> None:
    seeds = iter(range(DECKS))

    def next_deck() -> list[int]:
        i = next(seeds)
        return derive_deck(TABLE_DRAW, SERVER_SEED, [Contribution(seat=1, player_id=1, seed=i.to_bytes(16, "big"))])

    assert card_by_position_chi_square(next_deck, DECKS) < CHI_SQUARE_BOUND


class ByteModulo(DrawStream):
    """The lightningfaucet-style bug, at one byte: draw ``byte % n``, no rejection."""

    def randrange(self, stop: int, /) -> int:
        return (self.word() & 0xFF) % stop


def test_the_check_catches_a_stream_with_modulo_bias() -> None:
    seeds = iter(range(DECKS // 4))  # the bias is large: a quarter is plenty

    def next_deck() -> list[int]:
        i = next(seeds)
        key = draw_key(TABLE_DRAW, SERVER_SEED, [Contribution(seat=1, player_id=1, seed=i.to_bytes(16, "big"))])
        return shuffled_deck(ByteModulo(key))

    assert card_by_position_chi_square(next_deck, DECKS // 4) > CHI_SQUARE_BOUND


# --- the hash chain and the errors a caller sees ------------------------------------------


def test_the_hash_chain_is_the_one_docs_fairness_md_writes_down() -> None:
    """chain(0) = SHA-256(text(DOMAIN + "/chain") | text(tournament)), chain(k) =
    SHA-256(chain(k-1) | SHA-256(record)); text(s) is its UTF-8 length (4 bytes, big-endian)
    then its bytes. Worked out here with hashlib alone, as a verifier would."""

    def text(s: str) -> bytes:
        data = s.encode()
        return len(data).to_bytes(4, "big") + data

    start = hashlib.sha256(text("hickory-fairdeck-v1/chain") + text("5eed")).digest()
    assert chain_start("5eed") == start
    assert chain_start("5eee") != start
    record = hashlib.sha256(b"header\nevent\nresult").digest()
    assert chain_link(start, record) == hashlib.sha256(start + record).digest()


def test_a_draw_of_an_unknown_kind_is_refused_naming_the_kinds() -> None:
    with pytest.raises(ValueError) as info:
        Draw(kind="dice", tournament="5eed", table=1, number=1)
    assert str(info.value) == "unknown draw kind 'dice' (expected one of deck, seating)"


def test_deal_order_starts_left_of_the_button_and_refuses_a_button_not_dealt_in() -> None:
    assert deal_order([8, 2, 5], 5) == [8, 2, 5]
    with pytest.raises(ValueError) as info:
        deal_order([2, 5], 3)
    assert str(info.value) == "the button seat 3 is not dealt in"


def test_the_stream_counts_every_word_it_draws_and_draws_from_one_up() -> None:
    stream = DrawStream(bytes(32))
    assert [stream.randrange(1) for _ in range(3)] == [0, 0, 0]  # one word each, nothing to choose
    assert stream.words == 3
    stream.randrange(2**32)
    assert stream.words == 4
    for stop in (0, 2**32 + 1):
        with pytest.raises(ValueError) as info:
            stream.randrange(stop)
        assert str(info.value) == f"randrange({stop}): the stream draws below 1 to 2^32"
    with pytest.raises(ValueError) as key:
        DrawStream(bytes(31))
    assert str(key.value) == "a draw key is 32 bytes"


def test_a_number_past_64_bits_in_a_draw_is_refused_naming_it() -> None:
    for table in (2**64, -1):
        with pytest.raises(ValueError) as info:
            commitment(Draw(kind=DECK, tournament="5eed", table=table, number=1), SERVER_SEED)
        assert str(info.value) == f"{table} does not fit an unsigned 64-bit field"
    commitment(Draw(kind=DECK, tournament="5eed", table=2**64 - 1, number=1), SERVER_SEED)
