"""The demo table's characters (`make run`): the dwarf, the elf and the goblin of the examples."""

SHEETS = {
    "Nain A": """systeme: cydonia
nom: Nain A
peuple: nain
caracteristiques: {physique: 7, agilite: 4, dexterite: 4, sensoriel: 3, courage: 5, charisme: 2,
  mental: 1, chance: 3}
competences: {hache: 6, esquive: 2, negociation: 3}
expertes: [negociation]
pv: {max: 30, actuels: 30}
xp: 10
armes:
  - {nom: Hache de bûcheron, competence: hache, degats: "PHY+3+1d10", equipee: principale}
protections: {torse: 3}
""",
    "Elfe B": """systeme: cydonia
nom: Elfe B
caracteristiques: {physique: 5, agilite: 4, dexterite: 6, sensoriel: 5, courage: 4, charisme: 4,
  mental: 4, chance: 4}
competences: {lame: 5, esquive: 5}
pv: 25
protections: {toutes: 3}
""",
    "Gobelin": """systeme: cydonia
nom: Gobelin
caracteristiques: {physique: 3, agilite: 5, dexterite: 4, sensoriel: 4, courage: 2, charisme: 1,
  mental: 2, chance: 3}
competences: {petite_lame: 3, esquive: 4}
pv: 12
""",
}
