from rules_history.cli import main

main()
