"""The simulator (issue 20): who wins an encounter, in how many rounds, on the real sheets.

- `fight`: the sides, their copies, the tactics and the figures of a fight (shared definitions);
- `scalar`: the engine's loop — one fight at a time through the systems' own code;
- `tables`: each system's attack compiled into exact outcome tables (cached by state);
- `vector`: N fights at once with numpy, drawing from those tables;
- `exact`: a small duel solved exactly (a Markov chain over the characters' states);
- `run`: the entry point the front ends call (compiled when possible, else the scalar engine);
- `sweep`: a sweep over a count or a sheet value, locally or on Dask.

Nothing here writes a file or a campaign: the sheets are copied in memory.
"""
