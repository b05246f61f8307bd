"""Running games in bulk: seeding, and (later) aggregation and statistics. Family-agnostic."""
