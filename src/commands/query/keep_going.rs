//! `--keep-going`: with several chains, the answers of every chain whose requests all
//! succeeded are joined and written; each chain that failed is left out whole, with a warning,
//! and the run still ends with the first failure's exit code.

use serde_json::{Map, Value};

use crate::error::Failure;
use crate::fetched::{Assembly, Fetched};
use crate::model::Chain;

/// A chain left out: the warning's words, and the same as data.
pub(super) type LeftOut = (String, Map<String, Value>);

/// The answers so far, joined as they come unless `--keep-going` holds them back: a chain's
/// requests come one after another (plan order), so at most one chain's answers wait, until
/// the next chain's first answer shows the chain had no failure.
pub(super) struct Answers {
    keep_going: bool,
    /// The chains asked, in plan order.
    asked: Vec<Chain>,
    waiting: Vec<Fetched>,
    failures: Vec<(Option<Chain>, Failure)>,
}

impl Answers {
    pub(super) fn new(keep_going: bool, asked: &[Chain]) -> Answers {
        Answers {
            keep_going,
            asked: asked.to_vec(),
            waiting: Vec::new(),
            failures: Vec::new(),
        }
    }

    /// Takes one answer, in plan order; `false` once the run is bound to end with a failure
    /// that no later answer changes (any failure without `--keep-going`; with it, a failure
    /// that names no chain, or every chain asked failed), so that no more requests are sent
    /// and those on the wire are not waited for.
    pub(super) fn take(
        &mut self,
        answer: crate::error::Result<Fetched>,
        assembly: &mut Assembly,
    ) -> bool {
        match answer {
            Ok(answer) if !self.keep_going => assembly.add(answer),
            Ok(answer) if self.failed(answer.request.chain) => {}
            Ok(answer) => {
                if self.waiting.first().map(|a| a.request.chain) != Some(answer.request.chain) {
                    self.flush(assembly);
                }
                self.waiting.push(answer);
            }
            Err(failure) => {
                let chain = failure.detail.as_ref().and_then(|d| d.chain);
                if chain.is_some() && self.waiting.first().map(|a| a.request.chain) == chain {
                    self.waiting.clear();
                }
                self.failures.push((chain, failure));
            }
        }
        !self.decided()
    }

    /// Whether the run ends with a failure whatever the answers still to come: [`Self::fatal`]'s
    /// verdict, once no later answer can change it (answers come in plan order, so the first
    /// failure of each chain is in already).
    fn decided(&self) -> bool {
        let named = self.failures.iter().all(|(chain, _)| chain.is_some());
        !self.failures.is_empty()
            && (!self.keep_going || !named || self.asked.iter().all(|c| self.failed(*c)))
    }

    /// Joins the answers still waiting, once every answer is in.
    pub(super) fn flush(&mut self, assembly: &mut Assembly) {
        for answer in self.waiting.drain(..) {
            assembly.add(answer);
        }
    }

    /// Whether a request of `chain` failed.
    pub(super) fn failed(&self, chain: Chain) -> bool {
        self.failures.iter().any(|(c, _)| *c == Some(chain))
    }

    /// What ends the run before anything is written: the first failure, unless `--keep-going`
    /// has chains to write (every failure names its chain, and some chain is left). When
    /// `--keep-going` has none left, every chain's warning comes with it, so that none of the
    /// failures goes unnamed.
    pub(super) fn fatal(&mut self) -> Option<(Vec<LeftOut>, Failure)> {
        let named = self.failures.iter().all(|(chain, _)| chain.is_some());
        let some_left = self.asked.iter().any(|c| !self.failed(*c));
        if self.failures.is_empty() || (self.keep_going && named && some_left) {
            return None;
        }
        if self.keep_going && named {
            let (warnings, first) = std::mem::replace(self, Answers::new(true, &[])).left_out();
            return first.map(|first| (warnings, first));
        }
        Some((Vec::new(), self.failures.remove(0).1))
    }

    /// `--keep-going`'s warnings, one per chain left out, with its failure's class, each with
    /// its failure as data (for `--error-format json`), and the first failure, which sets the
    /// exit code once the other chains are written.
    pub(super) fn left_out(self) -> (Vec<LeftOut>, Option<Failure>) {
        let mut warnings = Vec::new();
        let mut named = Vec::new();
        let mut first = None;
        for (chain, failure) in self.failures {
            if !named.contains(&chain) {
                named.push(chain);
                let name = chain.map_or("", Chain::name);
                let class = crate::report::class(failure.exit);
                let line = format!(
                    "--keep-going: {name} is left out ({class}): {}",
                    failure.message
                );
                warnings.push((line, as_data(name, &failure)));
            }
            first.get_or_insert(failure);
        }
        (warnings, first)
    }
}

/// A left-out chain's failure as members: chain, class, exit, status, and the failure's text as
/// `reason` (`error` would read as the run's error).
fn as_data(chain: &str, failure: &Failure) -> Map<String, Value> {
    let status = failure.detail.as_ref().and_then(|d| d.status);
    let mut data = Map::new();
    data.insert("chain".into(), chain.into());
    data.insert("class".into(), crate::report::class(failure.exit).into());
    data.insert("exit".into(), (failure.exit as u8).into());
    data.insert("status".into(), status.into());
    data.insert("reason".into(), failure.message.clone().into());
    data
}
