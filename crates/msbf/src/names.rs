//! Named values (docs/rules/msbf.md): node types, condition types, YesNo kinds, event types and
//! the object-dependent branch functions. All are open newtypes so unknown values survive.

/// A JSON value that is a table name or a raw number.
#[cfg(feature = "json")]
#[derive(serde::Deserialize)]
#[serde(untagged)]
enum NameOrNumber {
    Number(u16),
    Name(String),
}

/// JSON for an open enumeration: its name when it has one, else the number; either reads back.
#[cfg(feature = "json")]
macro_rules! named_json {
    ($($name:ident),*) => {$(
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                match self.name() {
                    Some(n) => s.serialize_str(n),
                    None => s.serialize_u16(self.0),
                }
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                match NameOrNumber::deserialize(d)? {
                    NameOrNumber::Number(v) => Ok($name(v)),
                    NameOrNumber::Name(n) => $name::from_name(&n).ok_or_else(|| {
                        serde::de::Error::custom(format!("unknown {} {n:?}", stringify!($name)))
                    }),
                }
            }
        }
    )*};
}

#[cfg(feature = "json")]
named_json!(NodeType, ConditionType, YesNo, EventType);

gcio::open_enum! {
    /// FLW2 node type (u16 at node offset 0).
    pub NodeType(u16) {
        /// Shows an MSBT entry (by index).
        MESSAGE = 1 => "message",
        /// Branches on a condition through the branch list.
        CONDITION = 2 => "condition",
        /// Triggers an event (switch, animation, object function).
        EVENT = 3 => "event",
        /// Start of a flow; the target of a FEN1 label.
        ENTRY = 4 => "entry",
    }
}

gcio::open_enum! {
    /// What a CONDITION node tests (its arg 2).
    pub ConditionType(u16) {
        /// The YesNo dialog's answer; needs a MESSAGE node before it (MSBF-010).
        YES_NO = 0x00 => "YesNo",
        /// An object-dependent branch function ([`BRANCH_FUNCS`]).
        BRANCH_FUNC = 0x01 => "BranchFunc",
        /// The player is close enough to the NPC.
        PLAYER_DISTANCE = 0x02 => "PlayerDistance",
        /// The NPC's SW_A is on.
        SW_A = 0x03 => "SW_A",
        /// The NPC's SW_B is on.
        SW_B = 0x04 => "SW_B",
        /// No power-up.
        PLAYER_NORMAL = 0x05 => "PlayerModeNormal",
        /// Bee Mushroom.
        PLAYER_BEE = 0x06 => "PlayerModeBee",
        /// Boo Mushroom.
        PLAYER_BOO = 0x07 => "PlayerModeBoo",
        /// A Power Star has appeared.
        POWER_STAR_APPEARED = 0x08 => "PowerStarAppeared",
        /// The player is Luigi.
        PLAYER_LUIGI = 0x09 => "PlayerLuigi",
        /// A cutscene is active.
        CUTSCENE = 0x0A => "Cutscene",
        /// This message was already read (unverified on retail flows).
        MESSAGE_READ = 0x0B => "MessageReadFlag",
        /// The 120-star ending was achieved.
        ENDING_120_STARS = 0x0C => "Ending120Stars",
        /// Unknown; only used by King Whomp.
        UNKNOWN_0D = 0x0D => "Unknown0D",
        /// Riding Yoshi.
        PLAYER_YOSHI = 0x0E => "PlayerModeYoshi",
        /// Cloud Flower.
        PLAYER_CLOUD = 0x0F => "PlayerModeCloud",
        /// Rock Mushroom.
        PLAYER_ROCK = 0x10 => "PlayerModeRock",
    }
}

gcio::open_enum! {
    /// The YesNo dialog a YesNo condition shows (its parameter). The right button answers true.
    pub YesNo(u16) {
        /// Quit / Race.
        PICHAN_RACE = 0x00 => "PichanRace",
        /// No thanks / Buy.
        TICO_SHOP_EXCHANGE = 0x01 => "TicoShopExchange",
        /// 1-Up / Life.
        TICO_SHOP_WHICH = 0x02 => "TicoShopWhich",
        /// No / Yes.
        DREAMER = 0x03 => "Dreamer",
        /// No / Yes.
        SUPER_DREAMER = 0x04 => "SuperDreamer",
        /// No thanks / OK.
        MUIMUI_PLAY = 0x05 => "MuimuiPlay",
        /// No / Yes.
        SCORE_ATTACK_PLAY = 0x06 => "ScoreAttackPlay",
        /// Start over / Continue.
        SCORE_ATTACK_CONTINUE = 0x07 => "ScoreAttackContinue",
        /// No thanks / Let's glide.
        GLI_BIRD_RIDE = 0x08 => "GliBirdRide",
        /// No / Yes.
        TICO_FAT_COIN_GIVE = 0x09 => "TicoFatCoinGive",
        /// No thanks / Sure.
        FIRE_WOOD_BOX_PLAY = 0x0A => "FireWoodBoxPlay",
        /// No thanks / Tell me.
        GLI_BIRD_TUTORIAL = 0x0B => "GliBirdTutorial",
        /// No thanks / OK.
        LUIGI_TALK_NPC = 0x0C => "LuigiTalkNPC",
        /// No thanks / OK.
        KINOPIO_BANK = 0x0D => "KinopioBank",
        /// Quit / OK.
        LUCKEY_ROOM = 0x0E => "LuckeyRoom",
        /// That's right / Yes.
        MEISTER_TRADE = 0x0F => "MeisterTrade",
        /// That's OK / Tell me.
        TAMAKORO_TUTORIAL = 0x10 => "TamakoroTutorial",
        /// That's right / Yes.
        MEISTER_CONFIRM = 0x11 => "MeisterConfirm",
    }
}

gcio::open_enum! {
    /// What an EVENT node does (its arg 1).
    pub EventType(u16) {
        /// Object-dependent function; advances to the next node when done.
        EVENT_FUNC = 0x00 => "EventFunc",
        /// Object-dependent function; ends the talk when done.
        EVENT_FUNC_END = 0x01 => "EventFuncNoAdvance",
        /// Nothing mapped; goes to the next node.
        NONE = 0x02 => "None",
        /// Advances to the next node.
        FORWARD = 0x03 => "ForwardFlow",
        /// Object-dependent animation.
        ANIME_FUNC = 0x04 => "AnimeFunc",
        /// Turns the NPC's SW_A on.
        SW_A_ON = 0x05 => "SW_A_On",
        /// Turns SW_B on.
        SW_B_ON = 0x06 => "SW_B_On",
        /// Object-dependent kill function.
        KILL_FUNC = 0x07 => "KillFunc",
        /// Turns SW_A off.
        SW_A_OFF = 0x08 => "SW_A_Off",
        /// Turns SW_B off.
        SW_B_OFF = 0x09 => "SW_B_Off",
        /// Hides the talk-bubble pointer.
        HIDE_POINTER = 0x0A => "HideBubblePointer",
        /// Shows the talk-bubble pointer.
        SHOW_POINTER = 0x0B => "ShowBubblePointer",
    }
}

/// What a branch function's parameter may be (MSBF-012).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FuncParam {
    /// The function takes no parameter: pass 0.
    Zero,
    /// Documented values `lo..=hi`.
    Range(u16, u16),
    /// Not documented (any value).
    Any,
}

impl FuncParam {
    /// Whether `v` is allowed.
    pub fn allows(self, v: u16) -> bool {
        match self {
            FuncParam::Zero => v == 0,
            FuncParam::Range(lo, hi) => (lo..=hi).contains(&v),
            FuncParam::Any => true,
        }
    }
}

/// One object's branch function (condition type 1): which object, the game's function name and
/// its parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BranchFunc {
    /// The object (actor class) whose flow uses it.
    pub object: &'static str,
    /// The game's function name.
    pub function: &'static str,
    /// The parameter's documented values.
    pub param: FuncParam,
}

const fn bf(object: &'static str, function: &'static str, param: FuncParam) -> BranchFunc {
    BranchFunc {
        object,
        function,
        param,
    }
}

/// The branch functions, per object (MSBF-012). An object may register more than one (Caretaker,
/// KinopioPostman); which one a node calls is decided by the object, not the file.
pub const BRANCH_FUNCS: &[BranchFunc] = &[
    bf(
        "Caretaker",
        "Caretaker::branchFuncComet",
        FuncParam::Range(0, 6),
    ),
    bf("Caretaker", "Caretaker::branchFuncStar", FuncParam::Zero),
    bf(
        "CaretakerHunter",
        "CaretakerHunter::branchFunc",
        FuncParam::Zero,
    ),
    bf("Kinopio", "Kinopio::branchFunc", FuncParam::Range(0, 9)),
    bf("KinopioBank", "KinopioBank::branchFunc", FuncParam::Any),
    bf(
        "KinopioPostman",
        "KinopioPostman::branchFunc",
        FuncParam::Range(0, 1),
    ),
    bf(
        "KinopioPostman",
        "KinopioPostman::branchFuncLuigi",
        FuncParam::Zero,
    ),
    bf(
        "LuigiIntrusively",
        "LuigiIntrusively::branchFunc",
        FuncParam::Zero,
    ),
    bf(
        "LuigiTalkNPC",
        "LuigiTalkNPC::branchFunc",
        FuncParam::Range(0, 9),
    ),
    bf(
        "MameMuimuiAttackMan",
        "MameMuimuiAttackMan::branchFunc",
        FuncParam::Range(0, 2),
    ),
    bf("Meister", "Meister::branchFunc", FuncParam::Any),
    bf("Moc", "Moc::branchFunc", FuncParam::Range(0, 1)),
    bf("Pichan", "Pichan::branchFunc", FuncParam::Range(0, 2)),
    bf(
        "PichanRacer",
        "PichanRacer::branchFunc",
        FuncParam::Range(0, 2),
    ),
    bf(
        "ScoreAttackMan",
        "ScoreAttackMan::branchFunc",
        FuncParam::Range(0, 4),
    ),
    bf("Tico", "Tico::branchFunc", FuncParam::Range(0, 9)),
    bf("TicoFatCoin", "TicoFatCoin::branchFunc", FuncParam::Zero),
    bf("TicoShop", "TicoShop::branchFunc", FuncParam::Zero),
    bf("TicoShopDice", "TicoShopDice::branchFunc", FuncParam::Zero),
    bf(
        "TogepinAttackMan",
        "TogepinAttackMan::branchFunc",
        FuncParam::Range(0, 2),
    ),
    bf("", "MR::branchFuncGameProgress", FuncParam::Range(0, 9)),
];

/// The branch functions `object` registers (empty for an object not in the table).
pub fn branch_funcs(object: &str) -> impl Iterator<Item = &'static BranchFunc> + '_ {
    BRANCH_FUNCS
        .iter()
        .filter(move |f| !f.object.is_empty() && f.object == object)
}
