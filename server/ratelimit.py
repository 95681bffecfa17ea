"""Token buckets and per-address bookkeeping: how the server says "not so fast".

A ``TokenBucket`` holds up to ``burst`` tokens and gains ``rate`` a second; a request
takes one, and when none is left ``take`` says how long until one is (the refusal then
tells the client when to try again). Time is passed in (``trio.current_time()`` in the
server), so the buckets run on the test's virtual clock too.

``Doorman`` keeps what the server knows per remote address: connections that are not a
seated player's (handshakes in progress, spectators, the director), registrations, and
wrong passwords, secrets and tokens, with a lockout after repeated failures; and the same
counts for the whole server. Entries of addresses that have gone quiet are dropped, so an
attacker with many addresses cannot grow the table without bound.
"""

from __future__ import annotations

import math

import attrs

_EPSILON = 1e-9  # tokens: rounding in the refill must not leave "almost one" short
_MIN_WAIT = 0.001


@attrs.define
class TokenBucket:
    rate: float  # tokens per second
    burst: float  # most tokens held
    tokens: float = attrs.field(default=math.nan)
    stamp: float = -math.inf

    def __attrs_post_init__(self) -> None:
        if math.isnan(self.tokens):
            self.tokens = self.burst

    def _refill(self, now: float) -> None:
        if now > self.stamp:
            if self.stamp != -math.inf:
                self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
            self.stamp = now

    def take(self, now: float, n: float = 1.0) -> float:
        """Take ``n`` tokens: 0.0 if done, else the seconds until they would be there
        (nothing is taken then)."""
        self._refill(now)
        if self.tokens >= n - _EPSILON:
            self.tokens = max(0.0, self.tokens - n)
            return 0.0
        if self.rate <= 0:
            return math.inf
        # At least a millisecond: a wait so short the clock cannot tell it from now
        # would come back here at once.
        return max(_MIN_WAIT, (n - self.tokens) / self.rate)

    def charge(self, now: float, n: float) -> None:
        """Take ``n`` tokens whether or not they are there (into debt, down to ``-burst``):
        a cost found out after the fact, paid by waiting longer for the next."""
        self._refill(now)
        self.tokens = max(-self.burst, self.tokens - n)

    def wait_time(self, now: float, n: float = 1.0) -> float:
        """Seconds until ``n`` tokens are there, without taking any."""
        self._refill(now)
        if self.tokens >= n - _EPSILON:
            return 0.0
        return math.inf if self.rate <= 0 else max(_MIN_WAIT, (n - self.tokens) / self.rate)


def per_minute(count: float) -> TokenBucket:
    """A bucket allowing ``count`` a minute, all of them at once if need be."""
    return TokenBucket(rate=count / 60.0, burst=max(1.0, count))


def seconds_text(seconds: float) -> str:
    """A wait for a person: "0.4 s", "12 s", "3 min"."""
    if seconds == math.inf:
        return "a while"
    if seconds < 10:
        return f"{max(seconds, 0.1):.1f} s"
    if seconds < 120:
        return f"{math.ceil(seconds)} s"
    return f"{math.ceil(seconds / 60)} min"


@attrs.define
class Address:
    """What the server keeps about one remote address."""

    guests: int = 0  # open connections that are not a seated player's
    joins: TokenBucket | None = None
    failures: int = 0  # wrong passwords/secrets/tokens since the last success or lockout
    locked_until: float = -math.inf
    lockouts: int = 0
    seen: float = 0.0


class Doorman:
    """Per-address and server-wide limits on connections, registrations and guesses.

    ``joins_per_minute_per_address`` / ``joins_per_minute``: registrations (buckets);
    ``allowance`` raises the per-address limits for some addresses.
    ``failures_before_lockout`` wrong guesses from one address lock it out of every
    password, secret and token check for ``lockout_seconds`` (doubling with each lockout,
    up to an hour); ``failures_per_minute`` wrong guesses from everyone together, past
    which every check is refused for a moment.
    """

    MAX_ADDRESSES = 10_000
    FORGET_AFTER = 3600.0  # seconds of quiet before an address's record may be dropped

    def __init__(
        self,
        *,
        joins_per_minute_per_address: float,
        joins_per_minute: float,
        failures_before_lockout: int,
        lockout_seconds: float,
        failures_per_minute: float,
        allowance: dict[str, int] | None = None,
    ) -> None:
        self.joins_per_minute_per_address = joins_per_minute_per_address
        self.failures_before_lockout = failures_before_lockout
        self.lockout_seconds = lockout_seconds
        self.joins = per_minute(joins_per_minute)
        self.failures = per_minute(failures_per_minute)
        # Addresses allowed this many more connections and registrations than any other:
        # the built-in bots' (one process on the server's own machine plays them all).
        self.allowance = dict(allowance or {})
        self.addresses: dict[str, Address] = {}

    def at(self, host: str, now: float) -> Address:
        a = self.addresses.get(host)
        if a is None:
            if len(self.addresses) >= self.MAX_ADDRESSES:
                self._forget(now)
            a = self.addresses[host] = Address()
        a.seen = now
        return a

    def _forget(self, now: float) -> None:
        """Drop quiet addresses that hold nothing (no connection, no lockout)."""
        quiet = [h for h, a in self.addresses.items()
                 if a.guests == 0 and a.locked_until < now and now - a.seen > self.FORGET_AFTER]
        if not quiet:  # still too many: drop the quietest idle half
            idle = sorted((a.seen, h) for h, a in self.addresses.items()
                          if a.guests == 0 and a.locked_until < now)
            quiet = [h for _, h in idle[: len(idle) // 2]]
        for h in quiet:
            del self.addresses[h]

    def guest_limit(self, host: str, limit: int) -> int:
        """Connections ``host`` may hold that are not a seated player's."""
        return limit + self.allowance.get(host, 0)

    # -- guesses ----------------------------------------------------------------------------

    def guess_wait(self, host: str, now: float) -> tuple[float, str]:
        """Before checking a password, secret or token: (seconds to wait, why) or (0, "")."""
        a = self.at(host, now)
        if a.locked_until > now:
            return a.locked_until - now, "too many wrong attempts from your address"
        wait = self.failures.wait_time(now)
        if wait > 0:
            return wait, "too many wrong attempts on this server"
        return 0.0, ""

    def failed(self, host: str, now: float) -> bool:
        """A wrong password, secret or token: True if this locks the address out."""
        a = self.at(host, now)
        self.failures.take(now)
        a.failures += 1
        if a.failures >= self.failures_before_lockout:
            a.failures = 0
            a.locked_until = now + min(3600.0, self.lockout_seconds * 2 ** a.lockouts)
            a.lockouts += 1
            return True
        return False

    def succeeded(self, host: str, now: float) -> None:
        self.at(host, now).failures = 0

    # -- registrations ----------------------------------------------------------------------

    def join_wait(self, host: str, now: float) -> tuple[float, str]:
        """A registration from ``host``: (0, "") and counted, or (seconds to wait, why)."""
        a = self.at(host, now)
        if a.joins is None:
            a.joins = per_minute(self.joins_per_minute_per_address)
            a.joins.burst += self.allowance.get(host, 0)
            a.joins.tokens = a.joins.burst
        wait = a.joins.wait_time(now)
        if wait > 0:
            return wait, "too many players joined from your address"
        wait = self.joins.wait_time(now)
        if wait > 0:
            return wait, "too many players are joining at once"
        a.joins.take(now)
        self.joins.take(now)
        return 0.0, ""
