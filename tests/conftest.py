"""Shared test set-up: makes ``tests/`` importable so tests can use the unregistered toy game."""
