"""Every director command has one entry in each table: its logged arguments
(``directing.PAYLOADS``) and the operation applied (``tournament.inputs.OPS``)."""

from __future__ import annotations

import typing

import protocol.commands as cmd
from server.directing import PAYLOADS
from server.tournament.inputs import OPS

# Not tournament operations: the seeds' reveal is the fair-deck scheme's, sent, never logged.
NOT_LOGGED = {cmd.RevealCommand}


def test_every_logged_director_command_has_its_arguments_and_its_operation() -> None:
    commands = set(typing.get_args(cmd.Command)) - NOT_LOGGED
    assert set(PAYLOADS) == commands
    # transfer_chips is the tournament's operation with no protocol command (yet): a log
    # holding one still replays.
    assert {c.TYPE for c in commands} == set(OPS) - {"transfer_chips"}
