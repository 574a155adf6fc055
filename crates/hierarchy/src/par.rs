//! Work split across threads: with the `rayon` feature (on by default) by
//! rayon's pool, without it in order on the calling thread. Every caller
//! passes whether parallelism pays (see [`crate::HierarchyConfig::get_parallel`]);
//! the results are the same either way, in the same order.

/// Runs `a` and `b`, side by side when `parallel`.
pub(crate) fn join<A, B, RA, RB>(parallel: bool, a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    #[cfg(feature = "rayon")]
    if parallel {
        return rayon::join(a, b);
    }
    let _ = parallel;
    (a(), b())
}

/// `f(scratch, item)` for every item, in order; each thread makes its own
/// scratch with `init`.
pub(crate) fn map_init<T, S, R, I, F>(parallel: bool, items: &[T], init: I, f: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    I: Fn() -> S + Sync + Send,
    F: Fn(&mut S, &T) -> R + Sync + Send,
{
    #[cfg(feature = "rayon")]
    if parallel {
        use rayon::prelude::*;
        return items.par_iter().map_init(init, f).collect();
    }
    let _ = parallel;
    let mut scratch = init();
    items.iter().map(|t| f(&mut scratch, t)).collect()
}

/// [`map_init`] over `0..n`.
pub(crate) fn map_range<S, R, I, F>(parallel: bool, n: u32, init: I, f: F) -> Vec<R>
where
    R: Send,
    I: Fn() -> S + Sync + Send,
    F: Fn(&mut S, u32) -> R + Sync + Send,
{
    #[cfg(feature = "rayon")]
    if parallel {
        use rayon::prelude::*;
        return (0..n).into_par_iter().map_init(init, f).collect();
    }
    let _ = parallel;
    let mut scratch = init();
    (0..n).map(|k| f(&mut scratch, k)).collect()
}

/// `f` over `0..len` cut into ranges of `chunk` items (the last one
/// shorter), side by side when `parallel`; the results in range order.
pub(crate) fn map_chunks<R, F>(parallel: bool, len: usize, chunk: usize, f: F) -> Vec<R>
where
    R: Send,
    F: Fn(std::ops::Range<usize>) -> R + Sync + Send,
{
    map_range(
        parallel,
        len.div_ceil(chunk) as u32,
        || (),
        |_, c| {
            let from = c as usize * chunk;
            f(from..(from + chunk).min(len))
        },
    )
}

/// Folds `0..n` into vectors with `f` (per thread when `parallel`) and
/// concatenates them. The order of the items is unspecified when
/// `parallel`: callers sort or index what they need.
pub(crate) fn fold_concat<R, F>(parallel: bool, n: u32, f: F) -> Vec<R>
where
    R: Send,
    F: Fn(Vec<R>, u32) -> Vec<R> + Sync + Send,
{
    #[cfg(feature = "rayon")]
    if parallel {
        use rayon::prelude::*;
        return (0..n)
            .into_par_iter()
            .fold(Vec::new, f)
            .reduce(Vec::new, |mut a, mut b| {
                a.append(&mut b);
                a
            });
    }
    let _ = parallel;
    (0..n).fold(Vec::new(), f)
}

/// `f(item)` for each of `items`, side by side when `parallel`; the
/// results in order, each written once into the returned vector (no fill
/// before, no per-chunk vectors joined after).
pub(crate) fn map_collect<T, R, F>(parallel: bool, items: &[T], f: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&T) -> R + Sync + Send,
{
    #[cfg(feature = "rayon")]
    if parallel {
        use rayon::prelude::*;
        let mut out = Vec::new();
        items.par_iter().map(f).collect_into_vec(&mut out);
        return out;
    }
    let _ = parallel;
    items.iter().map(f).collect()
}
