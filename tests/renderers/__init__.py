"""The pictures: drawn from engine views, checked for size, legibility and secrets."""
