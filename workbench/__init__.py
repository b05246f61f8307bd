"""Chance It design workbench: validate, replay and simulate rules variants written in YAML."""

__version__ = "0.1.0"
