//! Throttling shared by every worker of a run: on a 429 they all wait out the service's wait
//! together, and the window of requests in flight halves for the rest of the run (at least
//! one), as aws's adaptive retry mode slows a whole client rather than one request.

use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

pub(super) struct Throttle {
    state: Mutex<State>,
    moved: Condvar,
}

struct State {
    /// Requests allowed in flight at once.
    limit: usize,
    in_flight: usize,
    /// No request starts before this, once a 429 asked for a wait.
    pause_until: Option<Instant>,
}

/// A place in the window, held while one request is sent and its answer read.
pub(super) struct Slot<'a>(&'a Throttle);

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        self.0.lock().in_flight -= 1;
        self.0.moved.notify_all();
    }
}

impl Throttle {
    /// Up to `jobs` requests at once (at least one).
    pub(super) fn new(jobs: usize) -> Throttle {
        Throttle {
            state: Mutex::new(State {
                limit: jobs.max(1),
                in_flight: 0,
                pause_until: None,
            }),
            moved: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A poisoned lock only means a worker panicked; the counts are still right.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until the shared pause is over and the window has room, then takes a place.
    pub(super) fn enter(&self) -> Slot<'_> {
        let mut state = self.lock();
        loop {
            let now = Instant::now();
            match state.pause_until {
                Some(until) if now < until => {
                    let (next, _) = self
                        .moved
                        .wait_timeout(state, until - now)
                        .unwrap_or_else(|e| e.into_inner());
                    state = next;
                }
                _ if state.in_flight < state.limit => {
                    state.in_flight += 1;
                    return Slot(self);
                }
                _ => state = self.moved.wait(state).unwrap_or_else(|e| e.into_inner()),
            }
        }
    }

    /// A 429 and the wait before the next try: every worker waits it out. The window halves
    /// once per pause (the 429s of one burst count once); returns the new window if it did.
    pub(super) fn throttled(&self, wait: Duration) -> Option<usize> {
        let now = Instant::now();
        let mut state = self.lock();
        let fresh = state.pause_until.is_none_or(|until| until <= now);
        let until = now + wait;
        state.pause_until = Some(state.pause_until.map_or(until, |p| p.max(until)));
        let halved = fresh.then(|| {
            state.limit = (state.limit / 2).max(1);
            state.limit
        });
        self.moved.notify_all();
        halved
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_halves_once_per_pause_down_to_one() {
        let throttle = Throttle::new(8);
        assert_eq!(throttle.throttled(Duration::from_secs(60)), Some(4));
        assert_eq!(throttle.throttled(Duration::from_secs(60)), None);
        let throttle = Throttle::new(3);
        assert_eq!(throttle.throttled(Duration::ZERO), Some(1));
        assert_eq!(throttle.throttled(Duration::ZERO), Some(1));
    }

    #[test]
    fn places_are_taken_and_given_back() {
        let throttle = Throttle::new(2);
        let (a, b) = (throttle.enter(), throttle.enter());
        assert_eq!(throttle.lock().in_flight, 2);
        drop((a, b));
        assert_eq!(throttle.lock().in_flight, 0);
    }
}
