"""The stores (SQLite and PostgreSQL), the service's races and the league rules, without Discord."""
