"""What the verifiable deck costs the server per hand, next to the plain shuffle, in one run.

    python bench/fairdeck.py [--hands N] [--players P] [--rounds R] [--seed S]

Three ways to get a hand's deck, each for the same N hands of P players:

- ``shuffle``: what the server did before the scheme, ``cards.shuffled_deck`` on
  ``secrets.SystemRandom`` (the OS CSPRNG, one call per swap);
- ``scheme``: what it does now for a hand, all of it: a 32-byte server seed from the OS
  CSPRNG, the commitment, the key over the draw and P players' seeds, the HMAC stream
  and the Fisher-Yates with rejection sampling, the ``deck_commit`` and
  ``seeds_received`` lines encoded, and the hash chain over the finished hand's stored
  event lines (the events of a real hand played by ``poker.policy``'s random player; the
  server encodes the lines to store them anyway, so only the hashing counts here; a
  server without a database keeps no chain);
- ``hand``: playing that hand itself with the engine (for scale: the rest of a hand's work).

The three take turns for R rounds; each rate is the best round, in CPU time
(``time.process_time``), so other work on a busy machine counts against none of them.
Not measured: the wait for the players' seeds, which is one network round trip when
every client answers (at most ``--seed-window`` when one does not). Nothing here asserts
a speed.
"""

from __future__ import annotations

import argparse
import random
import secrets
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/server.py shadows `server`

from poker import fairdeck as fd  # noqa: E402
from poker.cards import shuffled_deck  # noqa: E402
from poker.events import Event  # noqa: E402
from poker.hand import Hand  # noqa: E402
from poker.policy import random_action  # noqa: E402
from protocol.codec import encode  # noqa: E402
from server.fairness import FairDealer, commit_message, seeds_message  # noqa: E402
from server.records import event_to_json  # noqa: E402
from server.rows import Record  # noqa: E402


def play(deck: list[int], players: int, rng: random.Random) -> Hand:
    hand = Hand(hand_no=1, seats=[(s, 10_000) for s in range(1, players + 1)], button=1,
                small_blind=50, big_blind=100, deck=deck)
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(legal.seat, random_action(legal, rng))
    return hand


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=2000, help="hands per round (2000)")
    p.add_argument("--players", type=int, default=6, help="players per hand (6)")
    p.add_argument("--rounds", type=int, default=5, help="rounds, best kept (5)")
    p.add_argument("--seed", type=int, default=1, help="seed of the players' seeds and decisions (1)")
    args = p.parse_args(argv)
    n, players = args.hands, args.players
    rng = random.Random(args.seed)
    system = secrets.SystemRandom()
    seeds = [[fd.Contribution(seat=s, player_id=s, seed=rng.randbytes(32)) for s in range(1, players + 1)]
             for _ in range(n)]
    # Real hands' events and results, for the chain (played once, outside the timing).
    hands = [play(shuffled_deck(rng), players, random.Random(i)) for i in range(n)]
    finished: list[tuple[list[Event], dict[str, object]]] = []
    for h in hands:
        assert h.result is not None
        finished.append((list(h.events), {"stacks": [list(s) for s in h.result.stacks],
                                          "carried_out": h.result.carried_out}))

    def shuffle() -> None:
        for _ in range(n):
            shuffled_deck(system)

    # The rows a server with a database stores for each hand's events (not timed: storing
    # them is the database's cost, with or without the scheme).
    rows = [[Record(sql="INSERT INTO hand_events (hand_no, idx, event) VALUES (?, ?, ?)",
                    params=(i + 1, k, event_to_json(e))) for k, e in enumerate(events)]
            for i, (events, _) in enumerate(finished)]

    def scheme() -> None:
        """One hand after another, as a table deals them."""
        fair = FairDealer("benchmark0000000")
        for i in range(n):
            draw = fair.draw_for(fd.DECK, 1, i + 1)
            c = fair.commit(draw, system.randbytes(fd.SERVER_SEED_BYTES))
            encode(commit_message(c, 1.0), 2)
            deck = fair.deck(draw, c.server_seed, seeds[i])
            done = fair.dealt_now(c, seeds[i], i + 1, deck)
            encode(seeds_message(done), 2)
            events, result = finished[i]
            fair.events_stored(1, rows[i])
            fair.chain_hand(1, events, result)

    decks = [shuffled_deck(rng) for _ in range(n)]

    def hand() -> None:
        decision = random.Random(0)
        for i in range(n):
            play(decks[i], players, decision)

    runs: dict[str, Callable[[], None]] = {
        "shuffle": shuffle, "scheme": scheme, "hand": hand}
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(args.rounds):
        for label, run in runs.items():
            start = time.process_time()
            run()
            best[label] = min(best[label], time.process_time() - start)
    per_hand = {label: seconds / n * 1e6 for label, seconds in best.items()}
    print(f"fair deck: {n} hands of {players} players, best of {args.rounds} rounds (CPU time)")
    for label, us in per_hand.items():
        print(f"  {label:8} {us:8.1f} us per hand")
    extra = per_hand["scheme"] - per_hand["shuffle"]
    print(f"  scheme / shuffle: {per_hand['scheme'] / per_hand['shuffle']:.2f}x; it adds {extra:.0f} us per hand, "
          f"{extra / per_hand['hand'] * 100:.0f}% of playing the hand itself")


if __name__ == "__main__":
    main()
