//! The explanation of a phase in plain words (`arbiter explain`).
