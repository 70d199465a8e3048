"""Benchmarks (``make bench``): engine playout rates, search rates, service latency."""
