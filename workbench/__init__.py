"""A design workbench for chance-driven tabletop games: validate, replay, simulate and print rules variants written in YAML."""

__version__ = "0.1.0"

#: The workbench's name in what it writes (summary.json, reports, provenance, manifests).
GENERATOR = "chance-workbench"
