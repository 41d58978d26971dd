/**
 * A press that waited at the broker while the bridge was not listening (link or daemon down),
 * from a source whose press time is the receive time: it was made at some moment between when
 * the bridge stopped listening and its arrival, not at its arrival.
 */
export interface LatePress {
  /** When the bridge stopped listening (ms): the press came after it. Null: not known. */
  readonly after: number | null
  /** When it reached the bridge: the press came before it. */
  readonly arrivedAt: number
}

/** A late press's click, as the operator is told about it: when it can have been made, and the window it got. */
export interface LateClick extends LatePress {
  readonly startTime: number
  readonly endTime: number
}

/**
 * Why the outbox did not store a press: its read or write error (src/delivery/outbox-errors.ts,
 * described here by shape, as nothing of the product is imported into domain/), whose message names
 * the file and what is wrong with it in words the technician can act on.
 */
export interface StoreRefusal {
  readonly _tag: "OutboxReadError" | "OutboxWriteError"
  readonly message: string
}

/** What became of a press, for the operator's feedback. */
export type PressResult =
  | { readonly _tag: "Queued"; readonly itemId: number; readonly clickId: string; readonly late?: LateClick }
  | { readonly _tag: "NoEvent" }
  | { readonly _tag: "UndoQueued"; readonly itemId: number; readonly clickItemId: number }
  | { readonly _tag: "NothingToUndo"; readonly reason: string }
  /** Only for a press nobody redelivers (a serial line, a timer's flush): the broker's are retried until stored. */
  | { readonly _tag: "NotStored"; readonly error: StoreRefusal }
  /** The device re-published a press already handled (its identity is the last one stored): nothing made again. */
  | { readonly _tag: "Repeat"; readonly identity: string }
