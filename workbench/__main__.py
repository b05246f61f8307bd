"""``python -m workbench`` runs the command line."""

from workbench import main

main()
