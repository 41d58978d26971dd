import type { OutboxItem } from "../delivery/outbox.ts"
import type { MadeFinish } from "./race-made.ts"

/** The finishes the outbox's recent finish clicks were made for: a restart mid-race makes none of them again. */
export const madeFinishes = (recent: ReadonlyArray<OutboxItem>): ReadonlyArray<MadeFinish> =>
  recent.flatMap((item) =>
    item.kind === "click" && item.payload.metadata.finish !== undefined
      ? [{ ...item.payload.metadata.finish, at: item.payload.timeStamp }]
      : []
  )
