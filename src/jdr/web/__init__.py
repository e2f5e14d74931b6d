"""The online table (issue 11): an ASGI server on the campaign layer — tables, people and roles,
actions exactly as the CLI runs them, the journal and its live channel, several processes on one
PostgreSQL database. Start with `jdr.web.serve.serve` (the CLI's `jdr servir`)."""
