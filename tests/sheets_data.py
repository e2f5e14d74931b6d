"""The seed's example characters as sheet texts, shared by the tests (a module of its own:
`from conftest import …` would depend on which conftest pytest loaded last)."""

NAIN_YAML = """\
systeme: cydonia
nom: Nain A   # le nain de l'exemple
peuple: nain
caracteristiques:
  Physique: 7
  agilite: 4
  DEX: 4
  sensoriel: 3
  courage: 5
  charisme: 2
  mental: 1
  chance: 3
competences:
  hache: 6
  esquive: 2
  negociation: 3
expertes: [negociation]
pv: {max: 30, actuels: 30}
xp: 10
armes:
  - {nom: Hache de bûcheron, competence: hache, degats: "PHY+3+1d10", equipee: principale}
protections: {torse: 3}
notes: garder ce commentaire
"""

ELFE_YAML = """\
systeme: cydonia
nom: Elfe B
caracteristiques: {physique: 5, agilite: 4, dexterite: 6, sensoriel: 5, courage: 4, charisme: 4,
  mental: 4, chance: 4}
competences: {lame: 5, esquive: 5}
pv: 25   # forme courte
protections: {toutes: 3}
"""
