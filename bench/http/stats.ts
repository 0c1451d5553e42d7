/** Percentiles and fixed-width columns for the printed tables. */

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function pad(value: string, width: number, left = false): string {
  return left ? value.padStart(width) : value.padEnd(width);
}

/** One table row: the first column left-aligned, the rest right-aligned. */
export function row(cells: readonly string[], widths: readonly number[]): string {
  return cells.map((cell, index) => pad(cell, widths[index] ?? 10, index > 0)).join(' ');
}

export function kib(bytes: number): string {
  return (bytes / 1_024).toFixed(0);
}
