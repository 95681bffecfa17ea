"""Hickory clients: the Trio client library, bots and the terminal client."""
