//! The owned model: the header words and the sound entries, each field typed as the game's
//! `JAUSoundAnimationSound` reads it. The count is derived by the writer; bytes after the table
//! are kept.

/// Bytes of the header (`u16` count, `u16` pad, `u32` control word).
pub const HEADER_SIZE: usize = 8;
/// Bytes of one sound entry.
pub const SOUND_SIZE: usize = 0x20;

/// Flag bits of [`Sound::flags`] the game tests, with their meaning (`JAUSoundAnimationSound`).
pub const FLAG_NAMES: [(u32, &str); 8] = [
    (0x01, "plays only forward"),
    (0x02, "plays only in reverse"),
    (0x04, "stops when the animation changes"),
    (0x08, "plays only once"),
    (0x10, "stops at note off"),
    (0x20, "stops when the speed is 0"),
    (
        0x40,
        "sets a life time (sounds between note on and note off)",
    ),
    (0x80, "plays at intervals"),
];
/// [`FLAG_NAMES`]' bits together.
pub const KNOWN_FLAGS: u32 = 0xFF;
/// [`FLAG_NAMES`]' "plays at intervals" bit: the game then takes the play count modulo
/// [`Sound::repeat_interval`].
pub const FLAG_INTERVALS: u32 = 0x80;

/// One sound the animation starts: at which frames, with which parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Sound {
    /// The JAudio sound id (0x00).
    pub sound_id: u32,
    /// Frame the sound starts at (0x04); entries are walked in order of it.
    #[cfg_attr(feature = "json", serde(with = "gcio::json_f32"))]
    pub note_on: f32,
    /// Frame the sound stops at (0x08); equal to `note_on` for a sound without an end.
    #[cfg_attr(feature = "json", serde(with = "gcio::json_f32"))]
    pub note_off: f32,
    /// Base pitch (0x0C; 1.0 = unchanged).
    #[cfg_attr(feature = "json", serde(with = "gcio::json_f32"))]
    pub pitch: f32,
    /// Behaviour bits (0x10, [`FLAG_NAMES`]).
    pub flags: u32,
    /// Base volume (0x14; 127 = full).
    pub volume: u8,
    /// Pitch change per frame of speed over 1, in 1/32 (0x15).
    pub pitch_delta: i8,
    /// The play count at which a once-only or interval sound plays (0x16).
    pub play_time: u8,
    /// Base pan (0x17; 64 = centre).
    pub pan: u8,
    /// Volume change per frame of speed over 1, doubled (0x18).
    pub volume_delta: i8,
    /// Interval of an interval sound, in plays (0x19).
    pub repeat_interval: u8,
    /// The byte at 0x1A (signed; its use is unknown, 0 in every file seen).
    pub unknown_1a: i8,
    /// The 5 bytes at 0x1B–0x1F (0 in every file seen).
    pub padding: [u8; 5],
}

impl Default for Sound {
    /// A sound at frame 0 with full volume, centre pan, unchanged pitch and no flags.
    fn default() -> Self {
        Sound {
            sound_id: 0,
            note_on: 0.0,
            note_off: 0.0,
            pitch: 1.0,
            flags: 0,
            volume: 127,
            pitch_delta: 0,
            play_time: 0,
            pan: 64,
            volume_delta: 0,
            repeat_interval: 0,
            unknown_1a: 0,
            padding: [0; 5],
        }
    }
}

impl Sound {
    /// The entry's 32 bytes.
    pub fn to_bytes(&self) -> [u8; SOUND_SIZE] {
        let mut b = [0u8; SOUND_SIZE];
        let words = [
            self.sound_id,
            self.note_on.to_bits(),
            self.note_off.to_bits(),
            self.pitch.to_bits(),
            self.flags,
        ];
        for (chunk, w) in b.chunks_exact_mut(4).zip(words) {
            chunk.copy_from_slice(&w.to_be_bytes());
        }
        let tail = [
            self.volume,
            self.pitch_delta as u8,
            self.play_time,
            self.pan,
            self.volume_delta as u8,
            self.repeat_interval,
            self.unknown_1a as u8,
        ];
        for (d, s) in b
            .iter_mut()
            .skip(0x14)
            .zip(tail.iter().chain(&self.padding))
        {
            *d = *s;
        }
        b
    }

    /// The entry read from its 32 bytes.
    pub fn from_bytes(b: &[u8; SOUND_SIZE]) -> Sound {
        let w = |at: usize| {
            let mut x = [0u8; 4];
            x.copy_from_slice(b.get(at..at + 4).unwrap_or(&[0; 4]));
            u32::from_be_bytes(x)
        };
        let byte = |at: usize| b.get(at).copied().unwrap_or(0);
        let mut padding = [0u8; 5];
        padding.copy_from_slice(b.get(0x1B..0x20).unwrap_or(&[0; 5]));
        Sound {
            sound_id: w(0),
            note_on: f32::from_bits(w(4)),
            note_off: f32::from_bits(w(8)),
            pitch: f32::from_bits(w(0x0C)),
            flags: w(0x10),
            volume: byte(0x14),
            pitch_delta: byte(0x15) as i8,
            play_time: byte(0x16),
            pan: byte(0x17),
            volume_delta: byte(0x18) as i8,
            repeat_interval: byte(0x19),
            unknown_1a: byte(0x1A) as i8,
            padding,
        }
    }

    /// The names of the set flag bits the game knows.
    pub fn flag_names(&self) -> Vec<&'static str> {
        FLAG_NAMES
            .iter()
            .filter(|(bit, _)| self.flags & bit != 0)
            .map(|&(_, n)| n)
            .collect()
    }
}

/// A sound animation table (`.bas`): the sounds an actor's animation of the same name starts.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Bas {
    /// The `u16` after the count (alignment padding before the control word; 0 in every file).
    pub pad: u16,
    /// The control word at 0x04: the game's `JAUSoundAnimation` takes it as a pointer to a
    /// control object and calls through it when it is not 0; 0 in every file.
    pub control: u32,
    /// The sounds in file order (their count is the header's `u16`).
    pub sounds: Vec<Sound>,
    /// Bytes after the last entry (none in every file seen).
    pub trailer: Vec<u8>,
}

impl Bas {
    /// Parses `data` into the owned model with the default [`gcio::Limits`].
    pub fn parse(data: &[u8]) -> gcio::Result<Bas> {
        Bas::parse_with(data, &gcio::Limits::default())
    }

    /// Parses `data` into the owned model; `limits` bound the copied entries.
    pub fn parse_with(data: &[u8], limits: &gcio::Limits) -> gcio::Result<Bas> {
        Bas::from_view(&crate::parse_with(data, limits)?, limits)
    }

    /// The owned model of a parsed view.
    pub fn from_view(v: &crate::View<'_>, limits: &gcio::Limits) -> gcio::Result<Bas> {
        // The model's size, header included: what the writer will allocate again.
        limits.check_alloc((v.trailer_offset() + v.trailer.len()) as u64, 1, 0)?;
        Ok(Bas {
            pad: v.pad,
            control: v.control,
            sounds: v.sounds().collect(),
            trailer: v.trailer.to_vec(),
        })
    }

    /// Parts kept as bytes rather than structure: the bytes after the table (empty on every
    /// real file), named like every model's `raw_parts()` in the workspace.
    pub fn raw_parts(&self) -> Vec<String> {
        if self.trailer.is_empty() {
            Vec::new()
        } else {
            vec![format!("bytes after the table ({})", self.trailer.len())]
        }
    }

    /// The index of the first sound whose note-on frame is at or after `frame`, as the game's
    /// `getStartSoundIndex` finds where playback resumes (a linear walk: the table is expected
    /// in order of note-on frames).
    pub fn start_index(&self, frame: f32) -> usize {
        self.sounds
            .iter()
            .position(|s| s.note_on >= frame)
            .unwrap_or(self.sounds.len())
    }
}
