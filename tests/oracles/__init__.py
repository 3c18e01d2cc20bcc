"""Slow, obviously right pure-Python references ("oracles") the tests check the kernels
against; kept out of the installed package (the benchmarks use them too, from this folder)."""
