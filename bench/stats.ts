/** Nearest-rank quantile of an ascending array (0 when empty). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

export const median = (sorted: readonly number[]): number => quantile(sorted, 0.5);

/** p50/p99/max of unsorted samples. */
export function summarise(samples: readonly number[]): { p50: number; p99: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted.at(-1) ?? 0 };
}

/** Rounds to `digits` decimals, for a table or a JSON file. */
export const round = (value: number, digits = 1): number => {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
};
