"""The sans-I/O rules engine: cards, evaluation, one hand, one table. No trio, no clock, no global random."""
