import { expect } from "vitest"
import type { ButtonEvent } from "../src/domain/button.ts"
import type { ButtonDecoder, ButtonInputMeta } from "./button-source.ts"
import { seededRandom } from "./shared/seeded-random.ts"

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

const gestures = new Set(["single", "double", "triple", "hold", "release"])

export const expectWellFormed = (events: ReadonlyArray<ButtonEvent>, source: string) => {
  for (const event of events) {
    expect(event.source).toBe(source)
    expect(event.button.length).toBeGreaterThan(0)
    expect(gestures.has(event.gesture), event.gesture).toBe(true)
    expect(Number.isFinite(event.pressedAt), String(event.pressedAt)).toBe(true)
  }
}

/**
 * Random bytes, and random mutations of `samples`, pushed in random chunks
 * with random meta: the decoder must not throw and must only emit well-formed
 * events.
 */
export const fuzz = (decoder: ButtonDecoder, options: {
  readonly source: string
  readonly samples: ReadonlyArray<string>
  /** Stream sources get random chunks; MQTT sources one message per push. */
  readonly stream: boolean
  readonly topics?: ReadonlyArray<string | undefined>
}) => {
  const { source, samples, stream } = options
  const topics = options.topics ?? [undefined]
  const random = seededRandom(7)
  const start = 1_700_000_000_000
  for (let round = 0; round < 400; round++) {
    const sample = utf8(samples[random.int(0, samples.length - 1)]!)
    const input = random.next() < 0.3 ? random.bytes(random.int(0, 64)) : random.mutate(sample, random.int(0, 4))
    const meta: ButtonInputMeta = { topic: topics[random.int(0, topics.length - 1)], retained: random.next() < 0.1 }
    const now = start + round * 37
    const pieces = stream ? random.chunks(input, 16) : [input]
    for (const chunk of pieces) expectWellFormed(decoder.push(chunk, now, meta), source)
    expectWellFormed(decoder.flush(now), source)
  }
}

