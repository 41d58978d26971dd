/**
 * Reproducible randomness for fuzz and chunking tests (mulberry32): a failing
 * seed can be replayed, which `Math.random` cannot.
 */
export const seededRandom = (seed: number) => {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  /** An integer in [min, max]. */
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1))
  const bytes = (length: number) => Uint8Array.from({ length }, () => int(0, 255))
  /** `data` cut into pieces of 1..maxPiece bytes. */
  const chunks = (data: Uint8Array, maxPiece: number): Array<Uint8Array> => {
    const pieces: Array<Uint8Array> = []
    for (let at = 0; at < data.length;) {
      const end = Math.min(data.length, at + int(1, maxPiece))
      pieces.push(data.subarray(at, end))
      at = end
    }
    return pieces
  }
  return { next, int, bytes, chunks }
}

export const concat = (...parts: ReadonlyArray<Uint8Array>): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}
