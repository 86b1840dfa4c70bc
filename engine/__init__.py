"""The rules engine: positions, legal plays, judging, match and cube, the clock
and record formats. Pure Python, standard library only: no I/O, no clock
reads, no randomness (dice are arguments)."""
