"""Benchmarks: `make bench` runs every module here; each prints its medians and rates."""
