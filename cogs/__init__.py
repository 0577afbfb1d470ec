"""Discord layer: cogs translate interactions into service calls and results into messages."""
