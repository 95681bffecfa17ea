"""Hickory protocol v1: message classes, strict codec and line framing. Pure: no I/O."""
