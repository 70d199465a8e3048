"""Tests of the worker: the search bots."""
