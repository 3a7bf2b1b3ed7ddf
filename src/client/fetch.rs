//! Sends a run's requests, concurrently, and hands the cleaned answers back in request order.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Condvar, Mutex};

use super::Client;
use crate::error::Result;
use crate::fetched::{Fetched, Request};

/// Sends every request (at most `jobs` at once) and hands each answer to `take` on the calling
/// thread, in request order, as soon as it and every answer before it are in. `done` is called
/// on the calling thread as each request ends, in whatever order they end. Once `take` says
/// `false` (the run's outcome is decided: a failure that ends it), no request is started any
/// more and this returns at once: the requests still on the wire are abandoned, never waited
/// for (their threads end with the process, or drop their answer when it comes).
///
/// Each answer is joined and dropped while later ones are still on the wire, and no worker
/// runs more than `jobs` requests ahead of the one being joined: a long run never holds every
/// body's records at once (a ten-year `report --chain all` is 18 bodies). The workers parse
/// their own bodies, so parsing stays parallel.
pub(crate) fn fetch_each(
    client: &Arc<Client>,
    requests: &[Request],
    jobs: usize,
    done: &dyn Fn(),
    take: &mut dyn FnMut(Result<Fetched>) -> bool,
) {
    let client = Arc::clone(client);
    let work = move |request: &Request| {
        client
            .fetch_records(request, &request.columns())
            .map(|records| {
                let (records, notes) = records.with_notes(&request.range, &request.columns());
                Fetched {
                    request: request.clone(),
                    records,
                    notes,
                }
            })
    };
    in_order_concurrently(requests.into(), jobs, work, done, take);
}

/// Applies `work` to every item on up to `jobs` threads and hands the results to `take` on the
/// calling thread in input order, each as soon as it and every one before it are done; `done`
/// is called there as each result comes, in any order.
///
/// No worker starts an item more than `jobs` places ahead of the next one `take` is waiting
/// for: results (response bodies) never pile up faster than they are taken, whatever the order
/// they finish in. Once `take` returns `false`, no item is started any more, no result handed
/// over, and this returns without waiting for the items still being worked on: the workers are
/// not joined then (a blocking request cannot be cut short from outside), and each drops its
/// result when it ends. Otherwise every worker is joined (a worker's panic goes on here).
pub(super) fn in_order_concurrently<T, R>(
    items: Arc<[T]>,
    jobs: usize,
    work: impl Fn(&T) -> R + Send + Sync + 'static,
    done: &dyn Fn(),
    take: &mut dyn FnMut(R) -> bool,
) where
    T: Send + Sync + 'static,
    R: Send + 'static,
{
    let jobs = jobs.clamp(1, items.len().max(1));
    let next = Arc::new(AtomicUsize::new(0));
    let window = Arc::new(Window::new());
    let work = Arc::new(work);
    let (sender, results) = mpsc::channel::<(usize, R)>();
    let workers: Vec<_> = (0..jobs)
        .map(|_| {
            let (sender, items) = (sender.clone(), Arc::clone(&items));
            let (next, work, window) = (Arc::clone(&next), Arc::clone(&work), Arc::clone(&window));
            std::thread::spawn(move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(index) else { break };
                if !window.wait_for(index.saturating_sub(jobs - 1)) {
                    break;
                }
                // Once the taker returned, the receiver is gone: the result is dropped.
                if sender.send((index, work(item))).is_err() {
                    break;
                }
            })
        })
        .collect();
    drop(sender);
    // Results that came early wait here until those before them are in.
    let mut early = BTreeMap::new();
    let mut wanted = 0;
    for (index, result) in results.iter() {
        done();
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
    for worker in workers {
        // A worker that panicked sent no result for its item: the panic goes on here, as it
        // would out of a scope.
        if let Err(panic) = worker.join() {
            std::panic::resume_unwind(panic);
        }
    }
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
    use std::time::Duration;

    #[test]
    fn no_worker_runs_more_than_jobs_ahead_of_the_taker() {
        let items: Arc<[u64]> = (0..30).collect();
        let taken = Arc::new(AtomicUsize::new(0));
        let furthest = Arc::new(AtomicUsize::new(0));
        let work = {
            let (taken, furthest) = (Arc::clone(&taken), Arc::clone(&furthest));
            move |n: &u64| {
                let ahead = *n as usize - taken.load(Ordering::SeqCst);
                furthest.fetch_max(ahead, Ordering::SeqCst);
                *n
            }
        };
        in_order_concurrently(items, 3, work, &|| {}, &mut |_| {
            // A slow taker: the workers would race ahead without the window.
            std::thread::sleep(Duration::from_millis(2));
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
        let items: Arc<[u64]> = (0..20).collect();
        let mut out = Vec::new();
        let work = |n: &u64| {
            std::thread::sleep(Duration::from_millis(20 - n));
            n * 2
        };
        let ended = AtomicUsize::new(0);
        let done = || {
            ended.fetch_add(1, Ordering::SeqCst);
        };
        in_order_concurrently(items, 4, work, &done, &mut |n| {
            out.push(n);
            true
        });
        assert_eq!(out, (0..20).map(|n| n * 2).collect::<Vec<_>>());
        assert_eq!(ended.load(Ordering::SeqCst), 20);
    }

    #[test]
    fn nothing_is_started_once_the_taker_wants_no_more() {
        for jobs in [1, 3] {
            let items: Arc<[u64]> = (0..40).collect();
            let started = Arc::new(AtomicUsize::new(0));
            let work = {
                let started = Arc::clone(&started);
                move |n: &u64| {
                    started.fetch_add(1, Ordering::SeqCst);
                    *n
                }
            };
            let mut out = Vec::new();
            in_order_concurrently(items, jobs, work, &|| {}, &mut |n| {
                out.push(n);
                n < 4
            });
            // Taken in order up to the one that stopped it; at most `jobs` more were started
            // (those already ahead in the window), never the rest. Workers still running after
            // the return may start none either: give them a moment to try.
            assert_eq!(out, [0, 1, 2, 3, 4]);
            std::thread::sleep(Duration::from_millis(50));
            assert!(started.load(Ordering::SeqCst) < 5 + jobs, "jobs {jobs}");
        }
    }

    /// The taker says no more while other items can never end (they wait on a gate the test
    /// never opens): it returns all the same, without them; no held item ever ended.
    #[test]
    fn items_still_at_work_are_abandoned_once_the_taker_wants_no_more() {
        let items: Arc<[u64]> = (0..32).collect();
        let gate = Arc::new((Mutex::new(false), Condvar::new()));
        let ended = Arc::new(AtomicUsize::new(0));
        let work = {
            let (gate, ended) = (Arc::clone(&gate), Arc::clone(&ended));
            move |n: &u64| {
                if *n > 0 {
                    let (open, opened) = &*gate;
                    let mut open = open.lock().unwrap();
                    while !*open {
                        open = opened.wait(open).unwrap();
                    }
                    ended.fetch_add(1, Ordering::SeqCst);
                }
                *n
            }
        };
        let mut out = Vec::new();
        in_order_concurrently(items, 32, work, &|| {}, &mut |n| {
            out.push(n);
            false
        });
        assert_eq!(out, [0]);
        assert_eq!(ended.load(Ordering::SeqCst), 0);
        // Let the abandoned workers end.
        *gate.0.lock().unwrap() = true;
        gate.1.notify_all();
    }
}
