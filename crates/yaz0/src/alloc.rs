//! Fallible allocation of buffers sized by a stream's declared size: a size the [`gcio::Limits`]
//! allow but the machine cannot give (an address-space limit, a small device) is an error naming
//! the size and the structure, never an abort.

use gcio::{Error, Result};

/// Reserves room for exactly `n` more elements of `v`, or says which structure (`what`, declared
/// at stream offset `at`) could not get how many bytes.
pub(crate) fn reserve<T>(v: &mut Vec<T>, n: usize, what: &str, at: u64) -> Result<()> {
    v.try_reserve_exact(n).map_err(|e| {
        Error::invalid(
            at,
            format!(
                "cannot allocate {:#x} bytes for the {what}: {e}",
                n.saturating_mul(size_of::<T>())
            ),
        )
    })
}

/// `n` zero bytes for `what` (see [`reserve`]).
pub(crate) fn zeroed(n: usize, what: &str, at: u64) -> Result<Vec<u8>> {
    let mut v = Vec::new();
    reserve(&mut v, n, what, at)?;
    v.resize(n, 0);
    Ok(v)
}
