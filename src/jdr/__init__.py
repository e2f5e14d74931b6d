"""jdr : moteur de règles et table de jeu pour jeux de rôle francophones."""

__version__ = "0.1.0"
