"""``TokenBucket`` and ``Doorman`` on their own: pure, every time passed in by hand.

The server uses them with ``trio.current_time()``; here the times are plain numbers, so
each test states exactly when things happen and what wait the refusal reports.
"""

from __future__ import annotations

import math

import pytest

from server.ratelimit import Doorman, TokenBucket, per_minute, seconds_text

# -- TokenBucket ----------------------------------------------------------------------------


def test_a_new_bucket_allows_its_whole_burst_at_once_then_refuses() -> None:
    b = TokenBucket(rate=2.0, burst=3.0)
    assert [b.take(100.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    # Empty: one token comes in 1/rate seconds.
    assert b.take(100.0) == pytest.approx(0.5)


def test_a_refusal_takes_nothing_and_reports_the_wait_left() -> None:
    b = TokenBucket(rate=2.0, burst=3.0)
    for _ in range(3):
        b.take(0.0)
    assert b.take(0.0) == pytest.approx(0.5)
    assert b.take(0.2) == pytest.approx(0.3)  # 0.4 of a token came; 0.6 missing at 2/s
    assert b.tokens == pytest.approx(0.4)  # the refusals took nothing
    assert b.take(0.5) == 0.0  # exactly when it said
    assert b.take(0.5) == pytest.approx(0.5)


def test_refill_is_proportional_to_time_and_capped_at_the_burst() -> None:
    b = TokenBucket(rate=1.0, burst=4.0)
    for _ in range(4):
        b.take(10.0)
    b.wait_time(12.5)
    assert b.tokens == pytest.approx(2.5)
    b.wait_time(1000.0)  # a long quiet does not bank more than the burst
    assert b.tokens == pytest.approx(4.0)
    assert [b.take(1000.0) for _ in range(4)] == [0.0] * 4
    assert b.take(1000.0) == pytest.approx(1.0)


def test_the_first_use_at_any_time_finds_the_bucket_full_not_overfull() -> None:
    # The stamp starts at -inf: the first call must not refill by (now - -inf) * rate.
    b = TokenBucket(rate=5.0, burst=2.0)
    assert b.take(1e6) == 0.0
    assert b.tokens == pytest.approx(1.0)


def test_time_going_backwards_neither_refills_nor_moves_the_stamp() -> None:
    b = TokenBucket(rate=1.0, burst=1.0)
    assert b.take(50.0) == 0.0
    assert b.take(40.0) == pytest.approx(1.0)
    assert b.stamp == 50.0
    assert b.take(50.5) == pytest.approx(0.5)  # measured from 50, not from 40


def test_taking_several_tokens_at_once() -> None:
    b = TokenBucket(rate=1.0, burst=5.0)
    assert b.take(0.0, 3.0) == 0.0
    assert b.take(0.0, 3.0) == pytest.approx(1.0)  # 2 there, 3 asked
    assert b.tokens == pytest.approx(2.0)


def test_the_wait_is_never_shorter_than_a_millisecond_and_rounding_does_not_refuse() -> None:
    b = TokenBucket(rate=1.0, burst=1.0, tokens=1.0 - 1e-6)
    assert b.wait_time(0.0) == pytest.approx(0.001)  # 1 µs missing: reported as 1 ms
    assert b.take(0.0) == pytest.approx(0.001)
    almost = TokenBucket(rate=1.0, burst=1.0, tokens=1.0 - 1e-12)
    assert almost.take(0.0) == 0.0  # "almost one" from float rounding counts as one
    assert almost.tokens == 0.0  # and does not leave a tiny debt


def test_a_bucket_that_never_refills_waits_forever() -> None:
    b = TokenBucket(rate=0.0, burst=1.0)
    assert b.take(0.0) == 0.0
    assert b.take(1e9) == math.inf
    assert b.wait_time(1e9) == math.inf


def test_wait_time_takes_nothing() -> None:
    b = TokenBucket(rate=1.0, burst=1.0)
    assert b.wait_time(0.0) == 0.0
    assert b.wait_time(0.0) == 0.0
    assert b.take(0.0) == 0.0
    assert b.wait_time(0.0) == pytest.approx(1.0)
    assert b.wait_time(0.25) == pytest.approx(0.75)


def test_charge_goes_into_debt_down_to_minus_the_burst_and_is_paid_by_waiting() -> None:
    b = TokenBucket(rate=2.0, burst=3.0)
    b.charge(0.0, 5.0)
    assert b.tokens == pytest.approx(-2.0)
    assert b.take(0.0) == pytest.approx(1.5)  # 3 tokens missing at 2/s
    b.charge(0.0, 100.0)
    assert b.tokens == pytest.approx(-3.0)  # debt is capped
    assert b.wait_time(0.0) == pytest.approx(2.0)
    assert b.take(2.0) == 0.0


def test_per_minute_spreads_the_count_over_a_minute_with_the_count_as_burst() -> None:
    b = per_minute(30)
    assert b.rate == pytest.approx(0.5)
    assert b.burst == 30
    assert [b.take(0.0) for _ in range(30)] == [0.0] * 30
    assert b.take(0.0) == pytest.approx(2.0)
    small = per_minute(0.5)  # less than one a minute still allows one at once
    assert small.burst == 1.0
    assert small.take(0.0) == 0.0
    assert small.take(0.0) == pytest.approx(120.0)


@pytest.mark.parametrize(("seconds", "text"), [
    (0.0, "0.1 s"), (0.42, "0.4 s"), (9.9, "9.9 s"), (10.0, "10 s"), (10.2, "11 s"),
    (119.0, "119 s"), (120.0, "2 min"), (121.0, "3 min"), (math.inf, "a while"),
])
def test_seconds_text(seconds: float, text: str) -> None:
    assert seconds_text(seconds) == text


# -- Doorman: registrations -----------------------------------------------------------------


def doorman(**kw: object) -> Doorman:
    args: dict[str, object] = dict(
        joins_per_minute_per_address=2, joins_per_minute=100, failures_before_lockout=3,
        lockout_seconds=10.0, failures_per_minute=100,
    )
    args.update(kw)
    return Doorman(**args)  # type: ignore[arg-type]


def test_joins_per_address_burst_then_a_wait_for_that_address_only() -> None:
    d = doorman(joins_per_minute_per_address=2)
    assert d.join_wait("10.0.0.1", 0.0) == (0.0, "")
    assert d.join_wait("10.0.0.1", 0.0) == (0.0, "")
    wait, why = d.join_wait("10.0.0.1", 0.0)
    assert wait == pytest.approx(30.0)  # 2 a minute: one more in 30 s
    assert why == "too many players joined from your address"
    assert d.join_wait("10.0.0.2", 0.0) == (0.0, "")  # another address is not held up
    wait, _ = d.join_wait("10.0.0.1", 20.0)
    assert wait == pytest.approx(10.0)
    assert d.join_wait("10.0.0.1", 30.0) == (0.0, "")
    assert d.join_wait("10.0.0.1", 30.0)[0] == pytest.approx(30.0)


def test_joins_for_the_whole_server_are_limited_across_addresses() -> None:
    d = doorman(joins_per_minute_per_address=10, joins_per_minute=3)
    for host in ("a", "b", "c"):
        assert d.join_wait(host, 0.0) == (0.0, "")
    wait, why = d.join_wait("d", 0.0)
    assert wait == pytest.approx(20.0)  # 3 a minute: one more in 20 s
    assert why == "too many players are joining at once"
    # The refused address was not charged: once the server has room, it may join its 10.
    assert d.join_wait("d", 20.0) == (0.0, "")
    assert d.addresses["d"].joins is not None
    assert d.addresses["d"].joins.tokens == pytest.approx(9.0, abs=0.1)


def test_a_join_refused_for_the_address_does_not_use_up_the_server_allowance() -> None:
    d = doorman(joins_per_minute_per_address=1, joins_per_minute=2)
    assert d.join_wait("a", 0.0) == (0.0, "")
    for _ in range(5):
        assert d.join_wait("a", 0.0)[1] == "too many players joined from your address"
    assert d.join_wait("b", 0.0) == (0.0, "")  # the server's second join is still there


def test_an_allowance_raises_the_joins_and_guests_of_one_address() -> None:
    d = doorman(joins_per_minute_per_address=2, allowance={"127.0.0.1": 5})
    assert [d.join_wait("127.0.0.1", 0.0)[0] for _ in range(7)] == [0.0] * 7
    assert d.join_wait("127.0.0.1", 0.0)[0] > 0
    assert [d.join_wait("10.0.0.9", 0.0)[0] for _ in range(2)] == [0.0] * 2
    assert d.join_wait("10.0.0.9", 0.0)[0] > 0
    assert d.guest_limit("127.0.0.1", 4) == 9
    assert d.guest_limit("10.0.0.9", 4) == 4


# -- Doorman: wrong passwords, secrets and tokens ---------------------------------------------


def test_the_lockout_comes_on_the_nth_failure_and_lasts_lockout_seconds() -> None:
    d = doorman(failures_before_lockout=3, lockout_seconds=10.0)
    assert d.guess_wait("h", 0.0) == (0.0, "")
    assert d.failed("h", 1.0) is False
    assert d.failed("h", 2.0) is False
    assert d.guess_wait("h", 2.0) == (0.0, "")  # two wrong: still allowed to guess
    assert d.failed("h", 3.0) is True
    wait, why = d.guess_wait("h", 3.0)
    assert wait == pytest.approx(10.0)
    assert why == "too many wrong attempts from your address"
    assert d.guess_wait("h", 12.5)[0] == pytest.approx(0.5)
    assert d.guess_wait("h", 13.0) == (0.0, "")
    assert d.guess_wait("other", 5.0) == (0.0, "")  # one address's lockout is its own


def test_each_lockout_doubles_up_to_an_hour() -> None:
    d = doorman(failures_before_lockout=2, lockout_seconds=10.0)
    now = 0.0
    lengths = []
    for _ in range(12):
        assert d.failed("h", now) is False
        assert d.failed("h", now) is True
        lengths.append(d.addresses["h"].locked_until - now)
        now = d.addresses["h"].locked_until  # the next round of guesses once it is over
        assert d.guess_wait("h", now) == (0.0, "")
    assert lengths[:5] == [10.0, 20.0, 40.0, 80.0, 160.0]
    assert max(lengths) == 3600.0
    assert lengths[-1] == 3600.0


def test_a_success_forgets_the_failures_so_far() -> None:
    d = doorman(failures_before_lockout=3)
    assert d.failed("h", 0.0) is False
    assert d.failed("h", 0.0) is False
    d.succeeded("h", 0.0)
    assert d.failed("h", 0.0) is False
    assert d.failed("h", 0.0) is False
    assert d.guess_wait("h", 0.0) == (0.0, "")
    assert d.failed("h", 0.0) is True


def test_failures_from_everyone_together_pause_every_check_for_a_moment() -> None:
    d = doorman(failures_before_lockout=100, failures_per_minute=3)
    for host in ("a", "b", "c"):
        assert d.failed(host, 0.0) is False
    wait, why = d.guess_wait("fresh", 0.0)
    assert wait == pytest.approx(20.0)
    assert why == "too many wrong attempts on this server"
    # guess_wait only looks: asking again and again does not lengthen the pause.
    for _ in range(10):
        d.guess_wait("fresh", 0.0)
    assert d.guess_wait("fresh", 10.0)[0] == pytest.approx(10.0)
    assert d.guess_wait("fresh", 20.0) == (0.0, "")


def test_the_address_lockout_is_reported_before_the_server_wide_pause() -> None:
    d = doorman(failures_before_lockout=1, lockout_seconds=50.0, failures_per_minute=1)
    assert d.failed("h", 0.0) is True
    assert d.guess_wait("h", 0.0) == (50.0, "too many wrong attempts from your address")
    assert d.guess_wait("x", 0.0)[1] == "too many wrong attempts on this server"


# -- Doorman: the table of addresses ----------------------------------------------------------


def test_a_full_table_drops_addresses_quiet_for_an_hour_but_keeps_a_connected_one() -> None:
    d = doorman()
    d.MAX_ADDRESSES = 4
    d.at("guest", 0.0).guests = 1
    d.at("quiet1", 0.0)
    d.at("quiet2", 0.0)
    d.at("recent", Doorman.FORGET_AFTER)
    d.at("new", 1.5 * Doorman.FORGET_AFTER)
    assert set(d.addresses) == {"guest", "recent", "new"}


def test_a_full_table_of_recent_addresses_drops_the_quietest_idle_half_not_the_locked() -> None:
    d = doorman(failures_before_lockout=1, lockout_seconds=100.0)
    d.MAX_ADDRESSES = 5
    assert d.failed("locked", 0.0) is True
    for i in range(4):
        d.at(f"h{i}", float(i + 1))
    d.at("new", 10.0)  # nobody quiet for an hour: the older half of the idle ones goes
    assert set(d.addresses) == {"locked", "h2", "h3", "new"}
    assert d.guess_wait("locked", 10.0)[0] == pytest.approx(90.0)  # the lockout held
