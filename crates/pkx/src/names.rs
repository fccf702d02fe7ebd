//! Names: body-map slots (SEED), animation slots for Pokémon and for each game's trainers
//! (EXT: GoD Tool and the StarsMmd add-on agree on the trainer lists).

use crate::view::Game;

/// Body-map slot keys, slot 0 … 15 (SEED: the waza-effect pipeline's attach points).
pub const BODY_PARTS: [&str; 16] = [
    "origin",
    "mouth",
    "chest",
    "tail",
    "eye_left",
    "eye_right",
    "hand_left",
    "hand_right",
    "additional_1",
    "additional_2",
    "additional_3",
    "additional_4",
    "foot_left",
    "foot_right",
    "center",
    "additional_5",
];

/// Pokémon animation slots; the ordering is the same in both games (SEED §5.2).
pub const POKEMON_SLOTS: [&str; 17] = [
    "Idle",
    "Special A",
    "Physical A",
    "Physical B",
    "Physical C",
    "Physical D",
    "Special B",
    "Physical E",
    "Damage",
    "Damage B",
    "Faint",
    "Extra 1",
    "Special C",
    "Extra 2",
    "Extra 3",
    "Extra 4",
    "Take Flight",
];

/// XD trainer animation slots.
pub const XD_TRAINER_SLOTS: [&str; 17] = [
    "Idle",
    "Poké Ball Throw",
    "Victory",
    "Battle Intro",
    "Frustrated",
    "Victory 2",
    "Unused 1",
    "Unused 2",
    "Unused 3",
    "Unused 4",
    "Defeat",
    "Unused 5",
    "Unused 6",
    "Unused 7",
    "Unused 8",
    "Unused 9",
    "Unused 10",
];

/// Colosseum trainer animation slots.
pub const COLOSSEUM_TRAINER_SLOTS: [&str; 17] = [
    "Idle",
    "Poké Ball Throw",
    "Victory",
    "Unknown 1",
    "Unknown 2",
    "Victory 2",
    "Battle Intro",
    "Unused 1",
    "Unused 2",
    "Hit by Shadow 1",
    "Hit by Shadow 2",
    "Defeat",
    "Unused 3",
    "Unused 4",
    "Unused 5",
    "Unused 6",
    "Unused 7",
];

/// Part-animation trigger names, index 0 … 3 (XD has four blocks, Colosseum the first three).
pub const TRIGGERS: [&str; 4] = ["sleep_on", "sleep_off", "extra", "talk"];

/// What a model depicts: the two groups load through different code paths (SEED §5.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "json", serde(rename_all = "lowercase"))]
pub enum ModelKind {
    /// A Pokémon: unused body-map slots hold 0.
    Pokemon,
    /// A human NPC / trainer: unused body-map slots hold −1.
    Trainer,
}

impl ModelKind {
    /// Slot names for this kind in `game`.
    pub fn slot_names(self, game: Game) -> &'static [&'static str; 17] {
        match (self, game) {
            (ModelKind::Pokemon, _) => &POKEMON_SLOTS,
            (ModelKind::Trainer, Game::Xd) => &XD_TRAINER_SLOTS,
            (ModelKind::Trainer, Game::Colosseum) => &COLOSSEUM_TRAINER_SLOTS,
        }
    }

    /// The name of `slot`, or `Slot N` past the table.
    pub fn slot_name(self, game: Game, slot: usize) -> String {
        self.slot_names(game)
            .get(slot)
            .map_or_else(|| format!("Slot {slot}"), |s| (*s).to_owned())
    }
}
