"""Chance It design workbench: validate, replay and simulate rules variants written in YAML."""

__version__ = "0.1.0"

#: Marks the files the workbench writes (JSON, HTML, PDF, scripts), so a later run may replace them.
GENERATOR = "chance-workbench"
