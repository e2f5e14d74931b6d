"""System-agnostic core: checks, opposed checks, outcomes, sheets, the registry of systems."""
