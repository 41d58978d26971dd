import type { Decoder } from "../../../adapters/decoder.ts"
import type { Observation } from "../../commissioning/layout-observation.ts"
import type { LinkKind } from "../../config/scoreboard-link.ts"
import type { Reading } from "../../domain/reading.ts"
import type { LinkState, ReceivedChunk } from "../../domain/received.ts"
import { scoreboardView } from "../../status/liveness.ts"
import { type LinkRecord, nextLink } from "../../status/place-tracker.ts"
import { readingText } from "../../status/reading-text.ts"

/** A console repeats its state several times a second: five seconds without a frame while listening is a fault to show. */
export const listenNoDataAfterMs = 5_000

/** The recording the layout finder reads is bounded: 8 MiB is over an hour of a Stramatel bus at 19200 baud. */
const maxRecordedBytes = 8 * 1024 * 1024

type Board = { -readonly [K in keyof Reading]?: Reading[K] }

/**
 * What one listening step has seen: the link's state, bytes and frames, the board as the
 * readings build it up, the recording and the moments noted for the layout finder. Fed from the
 * link's callbacks (no I/O of its own); `view` says what the page shows, in the status page's words.
 */
export class ListenState {
  readonly chunks: Array<ReceivedChunk> = []
  readonly moments: Array<Observation> = []
  private recorded = 0
  private bytes = 0
  private lastBytesAt: number | null = null
  private lastReadingAt: number | null = null
  private board: Board | null = null
  private link: LinkRecord | undefined

  private readonly decoder: Decoder
  readonly kind: LinkKind
  readonly target: string
  readonly openedAt: number

  constructor(decoder: Decoder, kind: LinkKind, target: string, openedAt: number) {
    this.decoder = decoder
    this.kind = kind
    this.target = target
    this.openedAt = openedAt
  }

  readonly linkState = (state: LinkState, at: number): void => {
    this.link = nextLink(this.link, state, at)
  }

  readonly onChunk = (chunk: ReceivedChunk): void => {
    this.bytes += chunk.bytes.length
    this.lastBytesAt = chunk.receivedAt
    this.chunks.push(chunk)
    this.recorded += chunk.bytes.length
    while (this.recorded > maxRecordedBytes && this.chunks.length > 1) this.recorded -= this.chunks.shift()!.bytes.length
    for (const reading of this.decoder.push(chunk.bytes, chunk.receivedAt)) {
      this.lastReadingAt = reading.receivedAt
      // A frame may carry some fields only (Fair-Play's C packet: the clock): the board shows the last of each.
      this.board = { ...this.board, ...reading }
    }
  }

  /** The light and the reading as the page shows them, at `now`. */
  view(now: number) {
    const { badge, detail } = scoreboardView(
      { link: this.kind, target: this.target, record: this.link, lastBytesAt: this.lastBytesAt, lastReadingAt: this.lastReadingAt, stats: this.decoder.stats },
      { noDataAfterMs: listenNoDataAfterMs, stuckAfterMs: Infinity },
      now
    )
    const { receivedAt: _at, ...fields } = this.board ?? {}
    return {
      light: badge,
      detail,
      link: `${this.kind} ${this.target}`,
      reading: this.board === null ? null : { text: readingText(this.board as Reading), ...fields },
      bytes: this.bytes,
      frames: this.decoder.stats.frames,
      badFrames: this.decoder.stats.badFrames,
      since: this.openedAt,
      moments: this.moments.length
    }
  }
}
