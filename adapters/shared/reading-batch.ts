import type { Reading } from "../../src/domain/reading.ts"
import type { DecoderStats } from "../decoder.ts"
import { MalformedFrame } from "./field-values.ts"

// Most pushes complete no frame: they share one empty result instead of allocating.
const none: ReadonlyArray<Reading> = []

/** The readings one `Decoder.push` completes, collected as its frames are read. */
export class ReadingBatch {
  private readings: Array<Reading> | undefined

  add(reading: Reading): void {
    if (this.readings === undefined) this.readings = [reading]
    else this.readings.push(reading)
  }

  /**
   * Reads one frame into the batch, counted in `stats.frames`; a frame `read` rejects with
   * `MalformedFrame` (a field not as documented) is counted in `stats.badFrames` and makes no
   * reading. Anything else `read` throws (a TypeError …) is a bug in the decoder, not a bad
   * frame: it goes on up, to surface as a defect instead of hiding among the bad frames.
   */
  read(stats: DecoderStats, read: () => Reading): void {
    let reading: Reading
    try {
      reading = read()
    } catch (error) {
      if (!(error instanceof MalformedFrame)) throw error
      stats.badFrames++
      return
    }
    this.add(reading)
    stats.frames++
  }

  /** What this push completed; the batch starts empty again for the next one. */
  take(): ReadonlyArray<Reading> {
    const taken = this.readings ?? none
    this.readings = undefined
    return taken
  }
}
