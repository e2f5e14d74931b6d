"""Command line front end (typer + rich)."""
