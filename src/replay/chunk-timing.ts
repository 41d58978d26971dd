import { Result } from "effect"
import type { ReceivedChunk } from "../domain/received.ts"

/**
 * Receive times for a raw capture (`.bin`), which records bytes only.
 *
 * Default, deterministic: the file is cut into `chunkBytes`-sized chunks and
 * chunk i is stamped `start + i × chunkMs`. With the defaults (start 0,
 * chunkMs 0) every reading and entry is stamped 0: the output then shows what
 * was decoded and in which order, not when.
 */
export interface EvenTiming {
  readonly start: number
  readonly chunkMs: number
  readonly chunkBytes: number
}

export const defaultTiming: EvenTiming = { start: 0, chunkMs: 0, chunkBytes: 64 }

export const evenlyTimed = (bytes: Uint8Array, timing: EvenTiming): Array<ReceivedChunk> => {
  const chunks: Array<ReceivedChunk> = []
  for (let at = 0, i = 0; at < bytes.length; at += timing.chunkBytes, i++) {
    chunks.push({ bytes: bytes.subarray(at, at + timing.chunkBytes), receivedAt: timing.start + i * timing.chunkMs })
  }
  return chunks
}

/**
 * A `.times` sidecar gives a raw capture its real receive times when the
 * recording tool logged them: one line per received chunk, in order,
 * `<receivedAt ms> <byte count>`; empty lines and lines starting with `#` are
 * ignored. The counts must add up to the capture's length exactly, so a
 * sidecar that belongs to another file is refused rather than misapplied.
 */
export const sidecarTimed = (bytes: Uint8Array, sidecar: string): Result.Result<Array<ReceivedChunk>, string> => {
  const chunks: Array<ReceivedChunk> = []
  let at = 0
  for (const [index, raw] of sidecar.split("\n").entries()) {
    const line = raw.trim()
    if (line === "" || line.startsWith("#")) continue
    const match = /^(\d+)\s+(\d+)$/u.exec(line)
    if (match === null) return Result.fail(`line ${index + 1} is not "<receivedAt ms> <byte count>": ${JSON.stringify(line.slice(0, 40))}`)
    const length = Number(match[2])
    if (at + length > bytes.length) {
      return Result.fail(`line ${index + 1} goes past the end of the capture (${bytes.length} bytes): wrong sidecar?`)
    }
    chunks.push({ bytes: bytes.subarray(at, at + length), receivedAt: Number(match[1]) })
    at += length
  }
  if (at !== bytes.length) return Result.fail(`the byte counts add up to ${at}, the capture has ${bytes.length} bytes: wrong sidecar?`)
  return Result.succeed(chunks)
}
