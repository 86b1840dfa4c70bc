"""The program that runs the board: referee loop, hardware backends, journal, command line."""
