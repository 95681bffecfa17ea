"""The largest number of chips anything may hold: a stack, a pot, a blind, the total.

``2**53 - 1`` is the protocol's integer limit (``protocol.fields.MAX_INT``): the largest
whole number a JSON reader that uses doubles still holds exactly. Every chip amount the
server sends is at most the chips in play, so keeping the chips issued, the director's
corrections and the blinds within it keeps every message encodable (issue 12: a level
past the schedule once sent blinds above it, and one more doubling could not be encoded
at all). The engine does not enforce it; the tournament refuses inputs that would pass it.
"""

from __future__ import annotations

MAX_CHIPS = 2**53 - 1
