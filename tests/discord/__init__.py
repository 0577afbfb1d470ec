"""The bot played as people play it, through SimCord: commands, clicks, what came back."""
