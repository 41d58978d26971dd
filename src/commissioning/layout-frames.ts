import type { LayoutLearning } from "../../adapters/layout-learning.ts"
import { protocols } from "../../adapters/registry.ts"
import type { ReceivedChunk } from "../domain/received.ts"
import type { FrameState } from "./layout-states.ts"

/** A protocol whose definition says how `learn` finds its fields (`ProtocolDefinition.learn`). */
export type LearnableProtocol = string

/** The protocols `learn` reads, in the registry's order: those whose fields sit at fixed places. */
export const learnableProtocols: ReadonlyArray<LearnableProtocol> = Object.values(protocols)
  .filter((definition) => definition.learn !== undefined)
  .map((definition) => definition.name)

export const isLearnable = (name: string): name is LearnableProtocol => learnableProtocols.includes(name)

/** How `learn` reads the protocol's frames and writes its options; only for a learnable one. */
export const learningOf = (protocol: LearnableProtocol): LayoutLearning => protocols[protocol]!.learn!

/** The frames of a recording as the finder reads them: one state per change of each kind, and how many frames of each kind came. */
export interface Recording {
  readonly states: ReadonlyArray<FrameState>
  readonly counts: ReadonlyMap<string, number>
}

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

/**
 * The protocol's own framing over the recorded chunks (its definition's `learn.frames`): Fair-Play
 * STX…ETX packets by type letter, Stramatel 54-byte frames by sport code, the Daktronics state buffer
 * after each data frame that changes it (offsets in the buffer), text lines (character columns).
 */
export const framesOf = (protocol: LearnableProtocol, chunks: ReadonlyArray<ReceivedChunk>): Recording => {
  const frames = collector()
  learningOf(protocol).frames(chunks, frames.add)
  return frames.recording()
}
