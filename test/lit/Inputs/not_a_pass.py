"""Declares no pass."""

VALUE = 1
