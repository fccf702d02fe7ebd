//! The registry entry made from a format crate's contract: [`Registered`] answers every
//! [`Format`] question the contract ([`gcio::FileFormat`]) settles — names, extensions,
//! detection, parse, write-back, validation, conversions offered — and asks the format's
//! [`Present`] only for what the facade adds: the `info` summary, survey facts, and the file
//! conversions, members and packing that need the facade's codecs.

use std::marker::PhantomData;

use gcio::{ConversionSpec, Diagnostic, FileFormat, Limits, Result};

#[cfg(feature = "convert")]
use crate::format::{Conversion, Notices};
use crate::format::{Detection, Format, Info, Input, Member, Options, Parsed, Rewrite};
#[cfg(feature = "convert")]
use crate::{Folder, Outputs};

/// What a format adds to its contract in the facade. Only [`Present::info`] is required; the
/// rest default to "nothing" (no facts, no members, no conversion) or, for
/// [`Present::check`], to the contract's validator.
pub trait Present<F: FileFormat>: Sync {
    /// Summary for `gcf info`, from the parsed model.
    fn info(&self, data: &Input<'_>, model: &F::Model) -> Result<Info>;

    /// Counters for the survey ([`Format::facts`]).
    fn facts(&self, data: &Input<'_>, model: &F::Model) -> Vec<(String, u64)> {
        let _ = (data, model);
        Vec::new()
    }

    /// Validator findings with the caller's options and companion files ([`Format::check`]);
    /// the default is the contract's validator.
    fn check(&self, data: &Input<'_>, opts: &Options) -> Result<Vec<Diagnostic>> {
        let _ = opts;
        Ok(F::validate_with(data, data.limits()))
    }

    /// The options its check reads ([`Format::check_options`]).
    fn check_options(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }

    /// Option keys naming companion files ([`Format::companions`]).
    fn companions(&self) -> &'static [&'static str] {
        &[]
    }

    /// Members of a container ([`Format::members`]).
    fn members(&self, data: &Input<'_>) -> Result<Vec<Member>> {
        let _ = data;
        Ok(Vec::new())
    }

    /// What the file expands to before decoding ([`Format::expands_to`]).
    fn expands_to(&self, data: &[u8]) -> Option<u64> {
        let _ = data;
        None
    }

    #[cfg(feature = "convert")]
    /// The conversions ([`Format::convert_noting`]).
    fn convert_noting(
        &self,
        job: &Conversion<'_>,
        notices: &mut Notices,
    ) -> Result<Option<Outputs>> {
        let _ = (job, notices);
        Ok(None)
    }

    #[cfg(feature = "convert")]
    /// The files an extracted folder holds ([`Format::extract`]).
    fn extract(&self, data: &[u8]) -> Result<Option<Outputs>> {
        let _ = data;
        Ok(None)
    }

    #[cfg(feature = "convert")]
    /// A container from a folder ([`Format::pack`]).
    fn pack(
        &self,
        folder: &Folder,
        out: &std::path::Path,
        opts: &Options,
    ) -> Result<Option<Vec<u8>>> {
        let _ = (folder, out, opts);
        Ok(None)
    }

    /// A layout comparison ([`Format::compare`]).
    fn compare(&self, a: &[u8], b: &[u8]) -> Option<Result<String>> {
        let _ = (a, b);
        None
    }

    /// A layout afresh in the game tools' order ([`Format::rebuild`]).
    fn rebuild(&self, data: &[u8], opts: &Options) -> Option<Result<(Vec<u8>, Vec<Diagnostic>)>> {
        let _ = (data, opts);
        None
    }

    /// Sample files ([`Format::samples`]).
    fn samples(&self) -> Vec<(String, Vec<u8>)> {
        Vec::new()
    }
}

/// The presentation of a format that describes itself ([`gcio::Describe`]): its `info` is the
/// crate's summary (JSON: the summary's lines and the facts), its survey facts the crate's,
/// `convert x.EXT x.json` and back its JSON form when it has one, its samples the crate's. With
/// it a format's registry entry is one line, `&Registered::<fmt::Format, Described>::new(Described)`,
/// and the facade holds no code of its own for the format.
pub struct Described;

impl<F: gcio::Describe> Present<F> for Described
where
    F::Model: Send + Sync + 'static,
{
    fn info(&self, data: &Input<'_>, model: &F::Model) -> Result<Info> {
        let text = F::describe(data, model);
        #[cfg(feature = "json")]
        let json = {
            let facts: serde_json::Map<String, serde_json::Value> = F::facts(model)
                .into_iter()
                .map(|(k, n)| (k, n.into()))
                .collect();
            serde_json::json!({ "summary": text.lines().collect::<Vec<_>>(), "facts": facts })
        };
        #[cfg(not(feature = "json"))]
        let json = ();
        Ok(Info { text, json })
    }

    fn facts(&self, _data: &Input<'_>, model: &F::Model) -> Vec<(String, u64)> {
        F::facts(model)
    }

    #[cfg(feature = "convert")]
    /// `x.EXT x.json` and back through the crate's JSON form.
    fn convert_noting(&self, job: &Conversion<'_>, _: &mut Notices) -> Result<Option<Outputs>> {
        use crate::format::{extension_of, one_file};
        let ext = F::EXTENSIONS.first().copied().unwrap_or_default();
        let (from, to) = (extension_of(job.from), extension_of(job.to));
        let bytes = if from == ext && to == "json" {
            let Some(json) = F::to_json(&F::parse_with(job.input, job.limits)?) else {
                return Ok(None);
            };
            json?
        } else if from == "json" && to == ext {
            let Some(model) = F::from_json(job.input, job.limits) else {
                return Ok(None);
            };
            F::write(&model?)?
        } else {
            return Ok(None);
        };
        Ok(Some(one_file(job.to, bytes)))
    }

    fn samples(&self) -> Vec<(String, Vec<u8>)> {
        F::samples()
    }
}

/// A registry entry: the contract `F` with the presentation `P`.
pub struct Registered<F, P> {
    present: P,
    format: PhantomData<fn() -> F>,
}

impl<F, P> Registered<F, P> {
    /// The entry for `F` presented by `present` (a `static` in the registry).
    pub const fn new(present: P) -> Self {
        Registered {
            present,
            format: PhantomData,
        }
    }
}

impl<F, P> Format for Registered<F, P>
where
    F: FileFormat + 'static,
    F::Model: Send + Sync + 'static,
    P: Present<F>,
{
    fn name(&self) -> &'static str {
        F::NAME
    }

    fn aliases(&self) -> &'static [&'static str] {
        F::ALIASES
    }

    fn extensions(&self) -> &'static [&'static str] {
        F::EXTENSIONS
    }

    fn conversions(&self) -> &'static [ConversionSpec] {
        F::CONVERSIONS
    }

    /// The contract's detection; a weak one only for a name with the format's extension (and a
    /// format without a signature is not asked about other names at all).
    fn detect(&self, data: &[u8], path: &str) -> Option<Detection> {
        if F::NEEDS_NAME && !gcio::has_extension(path, F::EXTENSIONS) {
            return None;
        }
        F::detect(data)
            .filter(|d| d.claims(path, F::EXTENSIONS))
            .map(|d| Detection {
                format: d.name,
                detail: d.detail,
            })
    }

    /// The owned model, parsed once under the caller's [`Limits`] for every question.
    fn parse(&self, data: &[u8], limits: &Limits) -> Result<Parsed> {
        Ok(Box::new(F::parse_with(data, limits)?))
    }

    fn info(&self, data: &Input<'_>) -> Result<Info> {
        self.present.info(data, data.parsed::<F::Model>()?)
    }

    fn roundtrip(&self, data: &Input<'_>) -> Result<Rewrite> {
        let m = data.parsed::<F::Model>()?;
        Ok(Rewrite {
            bytes: F::write(m)?,
            raw: F::raw_parts(m),
        })
    }

    fn check(&self, data: &Input<'_>, opts: &Options) -> Result<Vec<Diagnostic>> {
        self.present.check(data, opts)
    }

    fn expands_to(&self, data: &[u8]) -> Option<u64> {
        self.present.expands_to(data)
    }

    fn check_options(&self) -> &'static [(&'static str, &'static str)] {
        self.present.check_options()
    }

    fn companions(&self) -> &'static [&'static str] {
        self.present.companions()
    }

    fn members(&self, data: &Input<'_>) -> Result<Vec<Member>> {
        self.present.members(data)
    }

    #[cfg(feature = "convert")]
    fn convert(&self, job: &Conversion<'_>) -> Result<Option<Outputs>> {
        self.present.convert_noting(job, &mut Notices::new())
    }

    #[cfg(feature = "convert")]
    fn convert_noting(
        &self,
        job: &Conversion<'_>,
        notices: &mut Notices,
    ) -> Result<Option<Outputs>> {
        self.present.convert_noting(job, notices)
    }

    #[cfg(feature = "convert")]
    fn extract(&self, data: &[u8]) -> Result<Option<Outputs>> {
        self.present.extract(data)
    }

    #[cfg(feature = "convert")]
    fn pack(
        &self,
        folder: &Folder,
        out: &std::path::Path,
        opts: &Options,
    ) -> Result<Option<Vec<u8>>> {
        self.present.pack(folder, out, opts)
    }

    fn facts(&self, data: &Input<'_>) -> Vec<(String, u64)> {
        data.parsed::<F::Model>()
            .map(|m| self.present.facts(data, m))
            .unwrap_or_default()
    }

    fn compare(&self, a: &[u8], b: &[u8]) -> Option<Result<String>> {
        self.present.compare(a, b)
    }

    fn rebuild(&self, data: &[u8], opts: &Options) -> Option<Result<(Vec<u8>, Vec<Diagnostic>)>> {
        self.present.rebuild(data, opts)
    }

    fn samples(&self) -> Vec<(String, Vec<u8>)> {
        self.present.samples()
    }
}
