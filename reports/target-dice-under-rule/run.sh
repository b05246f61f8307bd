#!/bin/sh
# Regenerates this study from the project folder: sh reports/target-dice-under-rule/run.sh
# (about 2.5 minutes on an idle 2-core machine). Every figure of README.md comes from the files it writes.
set -e
out=reports/target-dice-under-rule
workbench=${WORKBENCH:-.venv/bin/workbench}
$workbench compare variants/target-dice.yaml variants/target-dice-miss.yaml --players 3,4,5 --games 20000 \
  --seed 1 --bots search --out $out/compare --force
for players in 3 4 5; do
  $workbench skill variants/target-dice.yaml --players $players --games 20000 --seed 1 --out $out/skill-keep-${players}p --force
  $workbench skill variants/target-dice-miss.yaml --players $players --games 20000 --seed 1 --out $out/skill-miss-${players}p --force
done
python3 $out/tables.py
