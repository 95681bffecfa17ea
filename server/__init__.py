"""Hickory: the server side (rules engine, tournament, Trio server)."""
