import type { ByteRange } from "../../adapters/layout-learning.ts"

/**
 * A frame's content from the moment it arrived until the next frame of its kind: `kind` is the
 * packet letter (Fair-Play), the sport code (Stramatel), `buffer` (Daktronics' state buffer) or
 * `line`; `text` has one character per byte (per character for lines), so positions are byte offsets.
 */
export interface FrameState {
  readonly kind: string
  readonly at: number
  readonly text: string
}

/** Bytes `first` to `last` (inclusive) of frames of `kind`: a place the finder tries, as the consoles' learn descriptions name it. */
export type Candidate = ByteRange

const blank = " "

/** The recorded states of one kind of frame, and which positions were padding in all of them. */
export interface KindStates {
  readonly kind: string
  readonly states: ReadonlyArray<FrameState>
  /** Blank in every frame (beyond a frame's end counts as not blank). */
  readonly blank: ReadonlyArray<boolean>
  /** Blank or `0` in every frame: a leading zero pads like a blank. */
  readonly leading: ReadonlyArray<boolean>
}

export const kindStates = (frames: ReadonlyArray<FrameState>): ReadonlyArray<KindStates> => {
  const byKind = new Map<string, Array<FrameState>>()
  for (const frame of frames) {
    const list = byKind.get(frame.kind) ?? []
    list.push(frame)
    byKind.set(frame.kind, list)
  }
  return [...byKind].map(([kind, states]) => {
    states.sort((a, b) => a.at - b.at)
    const length = states.reduce((longest, s) => Math.max(longest, s.text.length), 0)
    const blankAt = Array.from({ length }, (_, i) => states.every((s) => s.text[i] === blank))
    const leading = Array.from({ length }, (_, i) => states.every((s) => s.text[i] === blank || s.text[i] === "0"))
    return { kind, states, blank: blankAt, leading }
  })
}

/** Index of the last state at or before `t`, or -1. */
export const lastAtOrBefore = (states: ReadonlyArray<FrameState>, t: number): number => {
  let low = 0
  let high = states.length - 1
  let found = -1
  while (low <= high) {
    const mid = (low + high) >> 1
    if (states[mid]!.at <= t) {
      found = mid
      low = mid + 1
    } else {
      high = mid - 1
    }
  }
  return found
}

/** The distinct frame texts current at some time in [t − lookBack, t], latest first. */
export const windowOf = (states: ReadonlyArray<FrameState>, t: number, lookBack: number): ReadonlyArray<string> => {
  let i = lastAtOrBefore(states, t)
  if (i < 0) return []
  const texts = new Set<string>([states[i]!.text])
  while (i > 0 && states[i]!.at > t - lookBack) {
    i--
    texts.add(states[i]!.text)
  }
  return [...texts]
}

export const same = (a: Candidate, b: Candidate) => a.kind === b.kind && a.first === b.first && a.last === b.last
export const overlaps = (a: Candidate, b: Candidate) => a.kind === b.kind && a.first <= b.last && b.first <= a.last
export const slice = (text: string, c: { readonly first: number; readonly last: number }) =>
  c.last < text.length ? text.slice(c.first, c.last + 1) : undefined
