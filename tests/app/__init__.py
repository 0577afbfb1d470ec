"""The program as an admin meets it: bot.py's commands, start-up, offline mode, the house's shape."""
