"""Hosting: tables, seats and the action log (store), and the service that
runs games for the Discord layer. No Discord imports here."""
