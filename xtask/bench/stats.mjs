// Sample statistics for the adaptive sampler: IQR outlier removal, then median, mean,
// standard deviation and coefficient of variation of what is kept.

/** Quantile q of sorted `xs`, linear interpolation between closest ranks. */
export function quantile(xs, q) {
  if (xs.length === 1) return xs[0];
  const pos = (xs.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo);
}

/** Keep the samples inside Q1 - 1.5 IQR .. Q3 + 1.5 IQR. */
export function dropOutliers(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  if (sorted.length < 4) return sorted;
  const q1 = quantile(sorted, 0.25);
  const q3 = quantile(sorted, 0.75);
  const iqr = q3 - q1;
  return sorted.filter((x) => x >= q1 - 1.5 * iqr && x <= q3 + 1.5 * iqr);
}

export function summarize(raw) {
  const kept = dropOutliers(raw);
  const n = kept.length;
  const mean = kept.reduce((a, b) => a + b, 0) / n;
  const variance = n > 1 ? kept.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1) : 0;
  const stddev = Math.sqrt(variance);
  return {
    medianMs: quantile(kept, 0.5),
    meanMs: mean,
    minMs: kept[0],
    maxMs: kept[n - 1],
    stddevMs: stddev,
    cv: mean > 0 ? stddev / mean : 0,
    kept: n,
    runs: raw.length,
    samplesMs: raw,
  };
}
