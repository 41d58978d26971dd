/**
 * What the console model (console-model.ts) is asked to play, and what it hands back: a race as
 * the operator and the swimmers make it, and the bytes a System-6-class console sends for it on
 * its scoreboard line (../shared/protocols/colorado-cts.md §2, §4, §5). Types only, so the model's
 * parts can share them without importing the model.
 */

export interface LaneScript {
  /** 1–12 (11, 12 on ch23, ch24). */
  readonly lane: number
  /** The touch, ms after the horn; absent: no finish. */
  readonly finishMs?: number
  /** Switched off: drops out of running to blank 1–2 s after the start. */
  readonly off?: boolean
  /** The first stopped packet is provisional: time 30–40 ms lower, place blank or not, sent once. */
  readonly provisional?: boolean
  /** A blank module from `fromMs` to `toMs` after the horn, then running again (no finish). */
  readonly dropOut?: { readonly fromMs: number; readonly toMs: number }
  /** Splits shown (stopped with a time, no place) for ~3 s each, then running again; ms after the horn. */
  readonly splitMs?: ReadonlyArray<number>
}

export interface RaceScript {
  readonly event: number
  readonly heat: number
  readonly lanes: ReadonlyArray<LaneScript>
  /** The previous race's results, shown before the start. */
  readonly previous?: {
    readonly results: ReadonlyArray<{ readonly lane: number; readonly place: number; readonly timeMs: number }>
  }
  /** Stream time before the horn (previous results shown, clock "0.0"). */
  readonly preStartMs: number
  /**
   * The clock runs on this long after the last touch, then the operator resets it. Give it 1.2 s or
   * more: a finish is settled on the board up to ~1.1 s after its touch.
   */
  readonly runOnMs: number
  /** Event/heat the operator sets after the reset (or at `advanceAtMs`). */
  readonly advanceTo?: { readonly event: number; readonly heat: number }
  /** ms after the horn: the operator advances event/heat DURING the race. */
  readonly advanceAtMs?: number
  /** The board blanked from `fromMs` to `toMs` after the horn; `total`: everything but the clock. */
  readonly blank?: { readonly fromMs: number; readonly toMs: number; readonly total?: boolean }
  /** Stream time after the reset (default 2 s). */
  readonly afterMs?: number
}

export interface ModelOptions {
  readonly baudRate?: 9600 | 2400
  /** Channel-0 packets inserted inside other packets (default true), as in two of the three recordings. */
  readonly interruptions?: boolean
  /** Bytes per chunk (default 16: a USB-serial adapter's 16 ms latency timer at 9600). */
  readonly chunkBytes?: number
  readonly seed?: number
}

/** A finish as the console settles it: the truth a decoder and a race tracker should arrive at. */
export interface ModelFinish {
  readonly lane: number
  readonly place: number
  /** Hundredths, truncated, as the board shows them. */
  readonly timeMs: number
  /** "28.91", "1:02.34". */
  readonly time: string
  /** The touch, ms from stream start. */
  readonly touchMs: number
  readonly event: number
  readonly heat: number
}

export interface ModelStream {
  /** `atMs` = when the chunk's LAST byte left the console, ms from stream start. */
  readonly chunks: ReadonlyArray<{ readonly atMs: number; readonly bytes: Uint8Array }>
  /** The horn, ms from stream start. */
  readonly startMs: number
  /** The settled values; touchMs from stream start. */
  readonly finishes: ReadonlyArray<ModelFinish>
  readonly resetMs?: number
}
