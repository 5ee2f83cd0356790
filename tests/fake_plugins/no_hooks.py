"""Broken: a module with no hook implementation at all."""

VALUE = 1
