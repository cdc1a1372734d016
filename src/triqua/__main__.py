from triqua.cli import main

main()
