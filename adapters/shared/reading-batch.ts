import type { Reading } from "../../src/domain/reading.ts"

// Most pushes complete no frame: they share one empty result instead of allocating.
const none: ReadonlyArray<Reading> = []

/** The readings one `Decoder.push` completes, collected as its frames are read. */
export class ReadingBatch {
  private readings: Array<Reading> | undefined

  add(reading: Reading): void {
    if (this.readings === undefined) this.readings = [reading]
    else this.readings.push(reading)
  }

  /** What this push completed; the batch starts empty again for the next one. */
  take(): ReadonlyArray<Reading> {
    const taken = this.readings ?? none
    this.readings = undefined
    return taken
  }
}
