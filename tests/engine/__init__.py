"""The rules, the bots and the hints of each game, through the engine contract only."""
