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
  /** `data` with `edits` bytes flipped, inserted or deleted at random places; new bytes from `byte`. */
  const mutate = (data: Uint8Array, edits: number, byte: () => number = () => int(0, 255)): Uint8Array => {
    const out = Array.from(data)
    for (let n = edits; n > 0 && out.length > 0; n--) {
      const at = int(0, out.length - 1)
      const kind = int(0, 2)
      if (kind === 0) out[at] = byte()
      else if (kind === 1) out.splice(at, 0, byte())
      else out.splice(at, 1)
    }
    return Uint8Array.from(out)
  }
  return { next, int, bytes, chunks, mutate }
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
