//! Picking benchmark queries from scenario rows.

use regionpath_grid::{Point, Scenario};

/// A length class of queries: terciles of the optimal length of a map's
/// scenario rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Bucket {
    /// The shortest third of the rows.
    Short,
    /// The middle third.
    Medium,
    /// The longest third.
    Long,
}

impl Bucket {
    /// All three, short first.
    pub const ALL: [Bucket; 3] = [Bucket::Short, Bucket::Medium, Bucket::Long];

    /// `short`, `medium` or `long`.
    pub fn name(self) -> &'static str {
        match self {
            Bucket::Short => "short",
            Bucket::Medium => "medium",
            Bucket::Long => "long",
        }
    }
}

/// One start/goal problem with its known optimum.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Query {
    /// Start cell.
    pub start: Point,
    /// Goal cell.
    pub goal: Point,
    /// The optimal length as the scenario prints it.
    pub optimal: f64,
    /// How far a correct length may be from `optimal` (print precision).
    pub tolerance: f64,
    /// Line of the row in its scenario file.
    pub line: usize,
}

impl Query {
    /// Whether `length` is the optimum within the print precision.
    pub fn is_optimal(&self, length: f64) -> bool {
        (length - self.optimal).abs() <= self.tolerance.max(1e-9)
    }
}

/// The queries chosen for one bucket of one map.
#[derive(Clone, Debug, PartialEq)]
pub struct BucketQueries {
    /// Which third.
    pub bucket: Bucket,
    /// The chosen queries, evenly spread over the bucket's rows by length.
    pub queries: Vec<Query>,
    /// Scenario rows in this bucket (before choosing).
    pub rows: usize,
    /// Shortest optimal length in the bucket.
    pub min_optimal: f64,
    /// Longest optimal length in the bucket.
    pub max_optimal: f64,
}

/// The smallest tolerance used: the 8-decimal street files truncate rather
/// than round (Berlin_0_1024 line 70 prints 26.62741699 for
/// 26.627416997969…), so half a unit in the 8th place is too tight. 10⁻⁶
/// is still far below the gap between two different path lengths.
pub const MIN_TOLERANCE: f64 = 1e-6;

fn to_query(scenario: &Scenario, i: usize) -> Query {
    let r = &scenario.rows[i];
    Query {
        start: r.start,
        goal: r.goal,
        optimal: r.optimal,
        tolerance: scenario.precision.tolerance(r.optimal).max(MIN_TOLERANCE),
        line: r.line,
    }
}

/// `k` indices spread evenly over `0..n` (the middle of `k` equal slices).
pub fn spread(n: usize, k: usize) -> Vec<usize> {
    let k = k.min(n);
    (0..k).map(|i| (2 * i + 1) * n / (2 * k)).collect()
}

/// Splits the rows (start ≠ goal) into terciles of optimal length and picks
/// up to `per_bucket` queries from each, spread evenly by length. The same
/// scenario and `per_bucket` always give the same queries.
pub fn split(scenario: &Scenario, per_bucket: usize) -> Vec<BucketQueries> {
    let mut order: Vec<usize> = (0..scenario.rows.len())
        .filter(|&i| scenario.rows[i].start != scenario.rows[i].goal)
        .collect();
    order.sort_by(|&a, &b| {
        scenario.rows[a]
            .optimal
            .total_cmp(&scenario.rows[b].optimal)
            .then(a.cmp(&b))
    });
    let n = order.len();
    Bucket::ALL
        .iter()
        .enumerate()
        .map(|(t, &bucket)| {
            let slice = &order[t * n / 3..(t + 1) * n / 3];
            let queries = spread(slice.len(), per_bucket)
                .into_iter()
                .map(|j| to_query(scenario, slice[j]))
                .collect();
            BucketQueries {
                bucket,
                queries,
                rows: slice.len(),
                min_optimal: slice.first().map_or(0.0, |&i| scenario.rows[i].optimal),
                max_optimal: slice.last().map_or(0.0, |&i| scenario.rows[i].optimal),
            }
        })
        .collect()
}

/// The rows of the `buckets` highest scenario buckets (the longest
/// problems), at most `limit` of them spread evenly, in file order.
pub fn top_buckets(scenario: &Scenario, buckets: u32, limit: usize) -> Vec<Query> {
    let max = scenario.rows.iter().map(|r| r.bucket).max().unwrap_or(0);
    let lowest = max.saturating_sub(buckets.saturating_sub(1));
    let idx: Vec<usize> = (0..scenario.rows.len())
        .filter(|&i| {
            scenario.rows[i].bucket >= lowest && scenario.rows[i].start != scenario.rows[i].goal
        })
        .collect();
    spread(idx.len(), limit)
        .into_iter()
        .map(|j| to_query(scenario, idx[j]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use regionpath_grid::{LengthPrecision, ScenRow};

    fn scen(lengths: &[f64]) -> Scenario {
        Scenario {
            rows: lengths
                .iter()
                .enumerate()
                .map(|(i, &l)| ScenRow {
                    bucket: (l / 4.0) as u32,
                    map: "m.map".into(),
                    map_width: 10,
                    map_height: 10,
                    start: Point::new(0, 0),
                    goal: Point::new(1 + i as u32 % 9, 1),
                    optimal: l,
                    line: i + 2,
                })
                .collect(),
            precision: LengthPrecision::Decimals(8),
        }
    }

    #[test]
    fn spread_is_even_and_bounded() {
        assert_eq!(spread(10, 5), vec![1, 3, 5, 7, 9]);
        assert_eq!(spread(3, 5), vec![0, 1, 2]);
        assert!(spread(0, 5).is_empty());
    }

    #[test]
    fn terciles_by_length() {
        let s = scen(&[9.0, 1.0, 5.0, 3.0, 7.0, 2.0, 8.0, 4.0, 6.0]);
        let b = split(&s, 2);
        assert_eq!(b.len(), 3);
        assert_eq!((b[0].min_optimal, b[0].max_optimal), (1.0, 3.0));
        assert_eq!((b[2].min_optimal, b[2].max_optimal), (7.0, 9.0));
        assert!(b.iter().all(|q| q.queries.len() == 2 && q.rows == 3));
        assert!(b[1]
            .queries
            .iter()
            .all(|q| (4.0..=6.0).contains(&q.optimal)));
    }

    #[test]
    fn top_buckets_picks_longest() {
        let s = scen(&[1.0, 2.0, 30.0, 31.0, 40.0]);
        let q = top_buckets(&s, 1, 10);
        assert_eq!(q.len(), 1);
        assert_eq!(q[0].optimal, 40.0);
        let q = top_buckets(&s, 3, 10);
        assert_eq!(q.iter().map(|q| q.optimal).collect::<Vec<_>>(), vec![40.0]);
    }
}
