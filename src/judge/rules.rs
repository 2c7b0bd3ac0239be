//! Rule editions: a struct of policies, one per DATC chapter-4 issue where the editions
//! differ, chosen by the edition's name. The engine reads the policies and never the
//! edition, so an edition is a row of [`Rules::EDITIONS`] (the table in `docs/RULES.md`).

/// DATC 4.A.2: how a convoy disruption paradox is decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParadoxRule {
    /// 2000/2023 rule with the Szykman backup (choice f): the convoying fleets in the
    /// paradox hold and their convoys fail.
    Szykman,
    /// 1982 rule (choice b): a convoyed army does not cut the support of a fleet
    /// supporting an action in a body of water that holds a convoying fleet. Paradoxes
    /// the rule leaves open fall to the Szykman backup.
    SeaSupportNotCut1982,
    /// 1971 rule (choice a): a convoyed army does not cut the support of a fleet
    /// supporting a fleet that attacks one of the army's convoying fleets. Paradoxes the
    /// rule leaves open (6.F.18, 6.F.22-6.F.24) fall to the Szykman backup.
    ConvoyAttackSupportNotCut1971,
}

/// DATC 4.A.3: when an army ordered to an adjacent province goes by convoy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConvoyIntent {
    /// 2000/2023 (choice c): by convoy if ordered "via convoy" or a fleet of its own
    /// power is legally ordered to convoy it. `land_fallback`: the v2.4 reading, where
    /// a via-convoy move with no convoy route ordered goes by land (v2.4 6.G.8); without
    /// it such a move fails (v3.0 6.G.8).
    ViaConvoyOrOwnFleet { land_fallback: bool },
    /// 1982 (choice b): by intent as shown by the player's own orders: by convoy if a
    /// fleet of its own power is legally ordered to convoy it; "via convoy" is not a
    /// rule of that edition and is ignored.
    OwnFleet1982,
    /// 1971 (choice a): by land, except when the unit in the destination moves the
    /// opposite way and a convoy route is ordered; then by convoy if that route is
    /// not disrupted, and by land if it is.
    Swap1971,
}

/// DATC 4.D.8: how far a unit is, for removals in civil disorder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CivilDisorder {
    /// 2023: to the nearest *owned* supply centre, any unit over land and sea.
    OwnedCentresAnyPath,
    /// Before 2023 (DATC v2.4 6.J): to the nearest *home* supply centre; a fleet moves
    /// as a fleet (from either coast), an army over land and sea (a sea area counts one
    /// step).
    HomeCentresByUnitType,
}

/// The rules in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The edition's name as reports print it: `2023`, `2000`, `1982`, `1971`.
    pub edition: &'static str,
    /// 4.A.2.
    pub paradox: ParadoxRule,
    /// 4.A.3.
    pub convoy_intent: ConvoyIntent,
    /// 4.D.8.
    pub civil_disorder: CivilDisorder,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::EDITIONS[0]
    }
}

impl Rules {
    /// Every edition, the default first.
    pub const EDITIONS: [Rules; 4] = [
        Rules {
            edition: "2023",
            paradox: ParadoxRule::Szykman,
            convoy_intent: ConvoyIntent::ViaConvoyOrOwnFleet {
                land_fallback: false,
            },
            civil_disorder: CivilDisorder::OwnedCentresAnyPath,
        },
        Rules {
            edition: "2000",
            paradox: ParadoxRule::Szykman,
            convoy_intent: ConvoyIntent::ViaConvoyOrOwnFleet {
                land_fallback: true,
            },
            civil_disorder: CivilDisorder::HomeCentresByUnitType,
        },
        Rules {
            edition: "1982",
            paradox: ParadoxRule::SeaSupportNotCut1982,
            convoy_intent: ConvoyIntent::OwnFleet1982,
            civil_disorder: CivilDisorder::HomeCentresByUnitType,
        },
        Rules {
            edition: "1971",
            paradox: ParadoxRule::ConvoyAttackSupportNotCut1971,
            convoy_intent: ConvoyIntent::Swap1971,
            civil_disorder: CivilDisorder::HomeCentresByUnitType,
        },
    ];

    /// The edition's name as reports print it.
    pub fn name(self) -> &'static str {
        self.edition
    }

    /// Read an edition name: `2023` (also `default`, `datc-3.0`), `2000` (also
    /// `datc-2.4`), `1982`, `1971`.
    pub fn parse(s: &str) -> Option<Rules> {
        let name = match s.trim().to_ascii_lowercase().as_str() {
            "2023" | "default" | "datc-3.0" | "datc3.0" | "datc-3" => "2023",
            "2000" | "datc-2.4" | "datc2.4" => "2000",
            "1982" => "1982",
            "1971" => "1971",
            _ => return None,
        };
        Rules::EDITIONS.iter().copied().find(|r| r.edition == name)
    }

    /// 4.A.3 with the v2.4 land fallback: a via-convoy move with no convoy route
    /// ordered goes by land.
    pub fn land_fallback(self) -> bool {
        matches!(
            self.convoy_intent,
            ConvoyIntent::ViaConvoyOrOwnFleet {
                land_fallback: true
            }
        )
    }

    /// The names `--rules` accepts, for messages.
    pub fn names() -> &'static str {
        "2023 (default; alias datc-3.0), 2000 (alias datc-2.4), 1982, 1971"
    }
}
