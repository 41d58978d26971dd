import type { ClickBody, ClickMetadata, ScoreEntry } from "../../src/delivery/item-payloads.ts"
import type { ItemKind } from "../../src/domain/item-kinds.ts"

/**
 * Payloads of the kinds the outbox checks (src/delivery/item-payloads.ts), for tests that need
 * some item and care little what it holds: a click body with the metadata every click carries,
 * a generic score entry.
 */
export const clickPayload = (timeStamp: number, metadata: Partial<ClickMetadata> = {}, extra: Partial<ClickBody> = {}): ClickBody => ({
  timeStamp,
  ...extra,
  metadata: { clickId: `click-${timeStamp}`, team: "home", source: "remote", ...metadata }
})

export const scorePayload = (left: number, timeStamp = left): typeof ScoreEntry.Type => ({ timeStamp, left, right: 0, period: 1 })

/**
 * The item a test writer makes of its `seq`: score, click and undo in turn, each carrying `seq`
 * and `filler` beside its kind's fields (kept as they are: a payload's unknown fields are never
 * dropped), so a reader can tell which write it is.
 */
export const numberedItem = (seq: number, filler: string) => {
  const extra = { seq, filler }
  switch (seq % 3) {
    case 0:
      return { kind: "score" as const, payload: Object.assign(scorePayload(seq), extra) }
    case 1:
      return { kind: "click" as const, payload: Object.assign(clickPayload(seq), extra) }
    default:
      return { kind: "undo" as const, payload: Object.assign({ clickItemId: seq }, extra) }
  }
}

/** Some item of `kind`, numbered `n`: a generic entry, a click at `n`, an undo of item `n`. */
export const itemOfKind = (kind: ItemKind, n: number) =>
  kind === "score"
    ? { kind, payload: scorePayload(n) }
    : kind === "click"
    ? { kind, payload: clickPayload(n) }
    : { kind, payload: { clickItemId: n } }
