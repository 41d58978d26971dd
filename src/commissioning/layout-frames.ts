import { RTD_BUFFER_SIZE, RtdBuffer } from "../../adapters/daktronics-rtd/buffer.ts"
import { hasValidChecksum } from "../../adapters/daktronics-rtd/checksum.ts"
import { defaultMaxFrameBytes, FrameSplitter } from "../../adapters/daktronics-rtd/framing.ts"
import { parseMessage } from "../../adapters/daktronics-rtd/message.ts"
import { defaultMaxPacketBytes, PacketSplitter } from "../../adapters/fairplay-mp70/framing.ts"
import { makeLineSplitter } from "../../adapters/shared/line-splitter.ts"
import { frameLength, makeFrameScanner } from "../../adapters/stramatel-452m/framing.ts"
import type { ReceivedChunk } from "../domain/received.ts"
import type { FrameState } from "./layout-states.ts"

/** The fixed-position ASCII protocols whose fields `learn` can find. */
export const learnableProtocols = ["fairplay-mp70", "stramatel-452m", "daktronics-rtd", "lines"] as const

export type LearnableProtocol = typeof learnableProtocols[number]

export const isLearnable = (name: string): name is LearnableProtocol => (learnableProtocols as ReadonlyArray<string>).includes(name)

/** The frames of a recording as the finder reads them: one state per change of each kind, and how many frames of each kind came. */
export interface Recording {
  readonly states: ReadonlyArray<FrameState>
  readonly counts: ReadonlyMap<string, number>
}

const latin1 = (bytes: Uint8Array, from: number, to: number): string => Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from).toString("latin1")

/** Byte 1 as the options name a frame's type: `0x35`. */
export const codeText = (byte: number): string => `0x${byte.toString(16).toUpperCase().padStart(2, "0")}`

/** A packet letter as typed (`H`), else its byte in hex. */
const letterText = (byte: number): string => (byte > 0x20 && byte < 0x7f ? String.fromCharCode(byte) : codeText(byte))

/** Collects frames, keeping a state only when its kind's text changed. */
const collector = () => {
  const states: Array<FrameState> = []
  const counts = new Map<string, number>()
  const latest = new Map<string, string>()
  return {
    add(kind: string, at: number, text: string) {
      counts.set(kind, (counts.get(kind) ?? 0) + 1)
      if (latest.get(kind) === text) return
      latest.set(kind, text)
      states.push({ kind, at, text })
    },
    recording: (): Recording => ({ states, counts })
  }
}

const stats = () => ({ overlong: 0, skippedBytes: 0 })

/**
 * The protocol's own framing over the recorded chunks: Fair-Play STX…ETX packets by type letter,
 * Stramatel 54-byte frames by sport code, the Daktronics state buffer after each data frame that
 * changes it (offsets in the buffer), text lines (character columns).
 */
export const framesOf = (protocol: LearnableProtocol, chunks: ReadonlyArray<ReceivedChunk>): Recording => {
  const frames = collector()
  switch (protocol) {
    case "fairplay-mp70": {
      const splitter = new PacketSplitter(defaultMaxPacketBytes, stats())
      for (const chunk of chunks) {
        splitter.push(chunk.bytes, chunk.receivedAt, (packet, length, startedAt) => {
          if (length > 2) frames.add(letterText(packet[1]!), startedAt, latin1(packet, 0, length))
        })
      }
      break
    }
    case "stramatel-452m": {
      const scanner = makeFrameScanner(() => undefined)
      for (const chunk of chunks) {
        scanner.push(chunk.bytes, chunk.receivedAt, (buffer, offset, startedAt) =>
          frames.add(codeText(buffer[offset + 1]!), startedAt, latin1(buffer, offset, offset + frameLength)))
      }
      break
    }
    case "daktronics-rtd": {
      const splitter = new FrameSplitter(defaultMaxFrameBytes, stats())
      const buffer = new RtdBuffer()
      for (const chunk of chunks) {
        for (const { body, startedAt } of splitter.push(chunk.bytes, chunk.receivedAt)) {
          if (!hasValidChecksum(body)) continue
          const message = parseMessage(body)
          if (message._tag !== "data") continue
          buffer.apply(message.offset, message.data)
          frames.add("buffer", startedAt, buffer.text(0, RTD_BUFFER_SIZE))
        }
      }
      break
    }
    case "lines": {
      const splitter = makeLineSplitter({ onOverlong: () => undefined })
      for (const chunk of chunks) {
        for (const line of splitter.push(chunk.bytes)) frames.add("line", chunk.receivedAt, line)
      }
      break
    }
  }
  return frames.recording()
}
