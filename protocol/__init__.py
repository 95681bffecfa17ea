"""Hickory protocol v1: message classes, strict codec and line framing. Pure: no I/O.

- ``protocol.messages``: the message classes (the reference for client authors).
- ``protocol.codec``: ``decode_client``, ``decode_server``, ``encode``, ``stamp``,
  ``unstructure``, ``error_reply``.
- ``protocol.framing``: ``LineBuffer`` and ``encode_line``.
- ``protocol.errors``: ``ProtocolError`` and the stable error codes.
- ``protocol.schema``: the JSON Schema (``python -m protocol.schema``).
- ``protocol.examples``: one example of every message, for tests and docs.
"""
