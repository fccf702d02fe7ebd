//! [`open_enum!`](crate::open_enum): the newtype every crate uses for enumerations read from files.

/// Declares an open enumeration: a `Copy` newtype over the stored integer with one named constant
/// per documented value. Any other value is still a valid instance, so files with values no
/// document lists read and write back unchanged.
///
/// A constant may give its display name after `=>`; otherwise the constant's own name is used.
/// Several constants may share a value (two naming sets for one field); [`name`] then returns
/// the first one declared.
///
/// ```
/// gcio::open_enum! {
///     /// A node kind.
///     pub Kind(u16) {
///         /// Shows a message.
///         MESSAGE = 1 => "message",
///         /// Branches.
///         BRANCH = 2,
///     }
/// }
/// assert_eq!(Kind::MESSAGE.name(), Some("message"));
/// assert_eq!(Kind::from_name("BRANCH"), Some(Kind(2)));
/// assert_eq!(Kind(9).to_string(), "0x9");
/// assert!(!Kind(9).is_known());
/// ```
///
/// [`name`]: #name
#[macro_export]
macro_rules! open_enum {
    (
        $(#[$m:meta])* $vis:vis $name:ident($t:ty) {
            $($(#[$cm:meta])* $c:ident = $v:expr $(=> $s:literal)?),* $(,)?
        }
    ) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
        $vis struct $name(pub $t);

        impl $name {
            $($(#[$cm])* pub const $c: $name = $name($v);)*

            /// Every named constant with its name, in declaration order.
            pub const NAMED: &'static [(&'static str, $name)] =
                &[$(($crate::open_enum!(@name $c $($s)?), $name($v))),*];

            /// The value's name, or `None` for a value without one.
            pub fn name(self) -> Option<&'static str> {
                Self::NAMED.iter().find(|(_, v)| *v == self).map(|(n, _)| *n)
            }

            /// The value with this name.
            pub fn from_name(name: &str) -> Option<Self> {
                Self::NAMED.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
            }

            /// True when the value has a name.
            pub fn is_known(self) -> bool {
                self.name().is_some()
            }
        }

        impl ::core::fmt::Display for $name {
            /// The name, or the value in hex.
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                match self.name() {
                    Some(n) => f.write_str(n),
                    None => write!(f, "{:#x}", self.0),
                }
            }
        }
    };
    (@name $c:ident) => { stringify!($c) };
    (@name $c:ident $s:literal) => { $s };
}
