//! Game files: one YAML file per game (see `docs/GAMES.md`).
