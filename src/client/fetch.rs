//! Sends a run's requests, concurrently, and hands the cleaned answers back in request order.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Condvar, Mutex};

use super::Client;
use crate::error::Result;
use crate::fetched::{Fetched, Request};

/// Sends every request (at most `jobs` at once) and hands each answer to `take` on the calling
/// thread, in request order, as soon as it and every answer before it are in. `done` is called
/// after each request, from the worker that made it. Once `take` says `false` (a failure that
/// ends the run), no request is started any more: those already on the wire end, unread by
/// `take`.
///
/// Each answer is joined and dropped while later ones are still on the wire, and no worker
/// runs more than `jobs` requests ahead of the one being joined: a long run never holds every
/// body's records at once (a ten-year `report --chain all` is 18 bodies). The workers parse
/// their own bodies, so parsing stays parallel.
pub(crate) fn fetch_each(
    client: &Client,
    requests: &[Request],
    jobs: usize,
    done: &(dyn Fn() + Sync),
    take: &mut dyn FnMut(Result<Fetched>) -> bool,
) {
    let work = |request: &Request| {
        let result = client
            .fetch_records(request, &request.columns())
            .map(|records| {
                let (records, notes) = records.with_notes(&request.range, &request.columns());
                Fetched {
                    request: request.clone(),
                    records,
                    notes,
                }
            });
        done();
        result
    };
    in_order_concurrently(requests, jobs, work, take);
}

/// Applies `work` to every item on up to `jobs` threads and hands the results to `take` on the
/// calling thread in input order, each as soon as it and every one before it are done.
///
/// No worker starts an item more than `jobs` places ahead of the next one `take` is waiting
/// for: results (response bodies) never pile up faster than they are taken, whatever the order
/// they finish in. Once `take` returns `false`, no item is started any more and no result
/// handed over.
pub(super) fn in_order_concurrently<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    work: impl Fn(&T) -> R + Sync,
    take: &mut dyn FnMut(R) -> bool,
) {
    let jobs = jobs.clamp(1, items.len().max(1));
    let next = AtomicUsize::new(0);
    let window = Window::new();
    let (sender, results) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let sender = sender.clone();
            let (next, work, window) = (&next, &work, &window);
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(index) else { break };
                if !window.wait_for(index.saturating_sub(jobs - 1)) {
                    break;
                }
                // The receiver outlives the workers (same scope), so a send cannot fail.
                let _ = sender.send((index, work(item)));
            });
        }
        drop(sender);
        // Results that came early wait here until those before them are in.
        let mut early = BTreeMap::new();
        let mut wanted = 0;
        for (index, result) in results {
            early.insert(index, result);
            while let Some(result) = early.remove(&wanted) {
                wanted += 1;
                if !take(result) {
                    window.stop();
                    return;
                }
                window.taken(wanted);
            }
        }
    });
}

/// How many results have been taken, for the workers that must not run too far ahead; and
/// whether the taker wants no more (`None`).
struct Window {
    taken: Mutex<Option<usize>>,
    moved: Condvar,
}

impl Window {
    fn new() -> Window {
        Window {
            taken: Mutex::new(Some(0)),
            moved: Condvar::new(),
        }
    }

    /// Waits until at least `count` results have been taken; `false` once no more are wanted.
    fn wait_for(&self, count: usize) -> bool {
        // A poisoned lock only means a `take` panicked; the count is still right.
        let mut taken = self.taken.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            match *taken {
                None => return false,
                Some(n) if n >= count => return true,
                Some(_) => taken = self.moved.wait(taken).unwrap_or_else(|e| e.into_inner()),
            }
        }
    }

    fn taken(&self, count: usize) {
        let mut taken = self.taken.lock().unwrap_or_else(|e| e.into_inner());
        if taken.is_some() {
            *taken = Some(count);
        }
        self.moved.notify_all();
    }

    /// No more results are wanted: every waiting worker stops, and none starts an item.
    fn stop(&self) {
        *self.taken.lock().unwrap_or_else(|e| e.into_inner()) = None;
        self.moved.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_worker_runs_more_than_jobs_ahead_of_the_taker() {
        let items: Vec<u64> = (0..30).collect();
        let taken = AtomicUsize::new(0);
        let furthest = AtomicUsize::new(0);
        let work = |n: &u64| {
            let ahead = *n as usize - taken.load(Ordering::SeqCst);
            furthest.fetch_max(ahead, Ordering::SeqCst);
            *n
        };
        in_order_concurrently(&items, 3, work, &mut |_| {
            // A slow taker: the workers would race ahead without the window.
            std::thread::sleep(std::time::Duration::from_millis(2));
            taken.fetch_add(1, Ordering::SeqCst);
            true
        });
        assert_eq!(taken.load(Ordering::SeqCst), 30);
        assert!(
            furthest.load(Ordering::SeqCst) < 3,
            "ran {} ahead",
            furthest.load(Ordering::SeqCst)
        );
    }

    #[test]
    fn results_keep_input_order() {
        let items: Vec<u64> = (0..20).collect();
        let mut out = Vec::new();
        let work = |n: &u64| {
            std::thread::sleep(std::time::Duration::from_millis(20 - n));
            n * 2
        };
        in_order_concurrently(&items, 4, work, &mut |n| {
            out.push(n);
            true
        });
        assert_eq!(out, (0..20).map(|n| n * 2).collect::<Vec<_>>());
    }

    #[test]
    fn nothing_is_started_once_the_taker_wants_no_more() {
        let items: Vec<u64> = (0..40).collect();
        for jobs in [1, 3] {
            let started = AtomicUsize::new(0);
            let work = |n: &u64| {
                started.fetch_add(1, Ordering::SeqCst);
                *n
            };
            let mut out = Vec::new();
            in_order_concurrently(&items, jobs, work, &mut |n| {
                out.push(n);
                n < 4
            });
            // Taken in order up to the one that stopped it; at most `jobs` more were started
            // (those already ahead in the window), never the rest.
            assert_eq!(out, [0, 1, 2, 3, 4]);
            assert!(started.load(Ordering::SeqCst) < 5 + jobs, "jobs {jobs}");
        }
    }
}
