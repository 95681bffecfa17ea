"""The line buffer: split, merged, byte-at-a-time, oversized and CRLF input."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol.errors import LINE_TOO_LONG, ProtocolError
from protocol.framing import DEFAULT_MAX_LINE, LineBuffer, encode_line


def test_a_line_split_across_feeds_comes_out_once_complete() -> None:
    buf = LineBuffer()
    assert buf.feed(b'{"type":') == []
    assert buf.has_partial
    assert buf.feed(b'"ping"}\n') == [b'{"type":"ping"}']
    assert not buf.has_partial


def test_a_hundred_messages_in_one_feed_come_out_in_order() -> None:
    lines = [b'{"type":"ping","nonce":"%d"}' % i for i in range(100)]
    buf = LineBuffer()
    assert buf.feed(b"".join(encode_line(line) for line in lines)) == lines
    assert not buf.has_partial


def test_one_byte_at_a_time() -> None:
    data = b'{"type":"ping"}\n{"type":"pong"}\r\n'
    buf = LineBuffer()
    out: list[bytes] = []
    for i in range(len(data)):
        out += buf.feed(data[i : i + 1])
    assert out == [b'{"type":"ping"}', b'{"type":"pong"}']


def test_crlf_is_accepted_and_only_one_cr_is_stripped() -> None:
    buf = LineBuffer()
    assert buf.feed(b"a\r\nb\r\r\nc\n") == [b"a", b"b\r", b"c"]


def test_bytearray_input_gives_bytes_lines() -> None:
    lines = LineBuffer().feed(bytearray(b"a\nbc"))
    assert lines == [b"a"] and type(lines[0]) is bytes


def test_empty_lines_are_returned_for_the_decoder_to_refuse() -> None:
    assert LineBuffer().feed(b"\n\r\n") == [b"", b""]


def test_a_line_of_exactly_the_limit_is_accepted() -> None:
    buf = LineBuffer(max_line=10)
    assert buf.feed(b"x" * 10 + b"\n") == [b"x" * 10]
    assert buf.feed(b"y" * 10) == []
    assert buf.feed(b"\r") == []  # the \r of a \r\n may still arrive
    assert buf.feed(b"\n") == [b"y" * 10]


def test_one_byte_over_the_limit_is_refused_before_the_newline_arrives() -> None:
    buf = LineBuffer(max_line=10)
    assert buf.feed(b"x" * 10) == []
    with pytest.raises(ProtocolError) as err:
        buf.feed(b"x")
    assert err.value.code == LINE_TOO_LONG
    assert err.value.fatal


def test_one_byte_over_the_limit_in_a_single_feed_is_refused() -> None:
    with pytest.raises(ProtocolError) as err:
        LineBuffer(max_line=10).feed(b"x" * 11 + b"\n")
    assert err.value.code == LINE_TOO_LONG


def test_a_cr_that_is_not_a_terminator_counts_towards_the_limit() -> None:
    buf = LineBuffer(max_line=10)
    buf.feed(b"x" * 10 + b"\r")
    with pytest.raises(ProtocolError):
        buf.feed(b"x")


def test_a_gigabyte_without_newline_is_refused_after_at_most_the_limit() -> None:
    buf = LineBuffer()
    chunk = b"a" * 65536
    fed = 0
    with pytest.raises(ProtocolError) as err:
        for _ in range(16384):  # 1 GiB in receive_some-sized chunks
            buf.feed(chunk)
            fed += len(chunk)
            assert buf.buffered <= DEFAULT_MAX_LINE + 1
    assert err.value.code == LINE_TOO_LONG
    assert fed <= DEFAULT_MAX_LINE
    assert buf.buffered == 0


def test_a_huge_single_chunk_is_refused_without_being_buffered() -> None:
    buf = LineBuffer(max_line=1000)
    with pytest.raises(ProtocolError):
        buf.feed(b"a" * 10_000_000)
    assert buf.buffered == 0


def test_after_an_oversized_line_the_buffer_stays_refused() -> None:
    buf = LineBuffer(max_line=4)
    with pytest.raises(ProtocolError):
        buf.feed(b"12345")
    with pytest.raises(ProtocolError):
        buf.feed(b"\nok\n")


def test_max_line_must_be_positive() -> None:
    with pytest.raises(ValueError):
        LineBuffer(max_line=0)


@given(
    lines=st.lists(st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"")), max_size=20),
    cuts=st.lists(st.integers(min_value=0, max_value=2000), max_size=30),
    crlf=st.booleans(),
)
def test_any_chunking_gives_the_same_lines(lines: list[bytes], cuts: list[int], crlf: bool) -> None:
    lines = [line.rstrip(b"\r") for line in lines]
    end = b"\r\n" if crlf else b"\n"
    data = b"".join(line + end for line in lines)
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    buf = LineBuffer(max_line=64)
    out: list[bytes] = []
    for a, b in zip(points, points[1:], strict=False):
        out += buf.feed(data[a:b])
    assert out == lines
    assert not buf.has_partial


def test_the_smallest_limit_is_one_byte() -> None:
    assert LineBuffer(1).feed(b"a\nb\r\n") == [b"a", b"b"]
    with pytest.raises(ValueError, match="^max_line must be at least 1$"):
        LineBuffer(0)


def test_an_oversized_line_is_refused_with_the_limit_named() -> None:
    buf = LineBuffer(4)
    with pytest.raises(ProtocolError) as err:
        buf.feed(b"abcde\n")
    assert (err.value.code, err.value.message) == (LINE_TOO_LONG, "line longer than the maximum of 4 bytes")


def test_one_byte_over_the_limit_passes_only_as_the_cr_of_a_crlf() -> None:
    assert LineBuffer(4).feed(b"abcd\r\n") == [b"abcd"]
    with pytest.raises(ProtocolError):
        LineBuffer(4).feed(b"abc\rd\n")  # five bytes before the newline, the last not a CR
    buf = LineBuffer(4)
    assert buf.feed(b"abc\r") == []
    with pytest.raises(ProtocolError):
        buf.feed(b"d\n")
