#!/bin/sh
# Regenerates this study from the project folder: sh reports/chance-chess-deck/run.sh
# (about 25 minutes on an idle 2-core machine). Every figure of README.md comes from the files it writes.
set -e
out=reports/chance-chess-deck
workbench=${WORKBENCH:-.venv/bin/workbench}
# 1. Seven splits of the 75 piece cards, greedy bots, 5,000 paired games each (the best is decks/tuned.yaml).
$workbench sweep sweeps/chance-chess-deck.yaml --out $out/sweep --force
# 2. The even split, the proportional one and the tuned one, search bots, on the same 300 games.
$workbench compare variants/chance-chess.yaml $out/decks/proportional.yaml $out/decks/tuned.yaml \
  --games 300 --seed 1 --bots search --out $out/compare-search --force
python3 $out/tables.py
