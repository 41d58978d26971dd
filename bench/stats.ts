export interface Percentiles {
  readonly p50: number
  readonly p99: number
  readonly max: number
  readonly n: number
}

/** Nearest-rank percentile: with fewer than 100 samples p99 is the largest one, never an interpolation. */
const rank = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!

export const percentiles = (values: ReadonlyArray<number>): Percentiles => {
  if (values.length === 0) return { p50: Number.NaN, p99: Number.NaN, max: Number.NaN, n: 0 }
  const sorted = [...values].sort((a, b) => a - b)
  return { p50: round1(rank(sorted, 50)), p99: round1(rank(sorted, 99)), max: round1(sorted.at(-1)!), n: sorted.length }
}

/** Least-squares slope of y over x. */
export const slope = (points: ReadonlyArray<{ readonly x: number; readonly y: number }>): number => {
  const n = points.length
  if (n < 2) return Number.NaN
  const mx = points.reduce((s, p) => s + p.x, 0) / n
  const my = points.reduce((s, p) => s + p.y, 0) / n
  const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0)
  const sxy = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0)
  return sxx === 0 ? Number.NaN : sxy / sxx
}

export const round1 = (value: number): number => Math.round(value * 10) / 10
export const round2 = (value: number): number => Math.round(value * 100) / 100
export const round3 = (value: number): number => Math.round(value * 1000) / 1000

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
