import { Effect, Option } from "effect"
import type { ScoreEntry } from "../domain/score-entry.ts"
import type { ServiceClient } from "../service/client.ts"
import type { ServiceError } from "../service/errors.ts"
import type { Event } from "../service/schemas.ts"
import type { OutboxItem } from "./outbox.ts"

/** Where the item already is at the service, if it is. */
export type Found = { readonly eventKey: string; readonly key?: string; readonly momentKey?: string }

const sameScore = (stored: Readonly<Record<string, unknown>>, entry: ScoreEntry): boolean => {
  const { key: _key, ...rest } = stored
  return JSON.stringify(canonical(rest)) === JSON.stringify(canonical(entry))
}

/** Key order must not decide whether two entries are the same. */
const canonical = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(canonical)
    : value !== null && typeof value === "object"
    ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, canonical(v)]))
    : value

/** Looks for the item in a snapshot of its event: a click by its id in a moment's metadata, a score by time and values. */
export const findInEvent = (item: OutboxItem, event: Event): Option.Option<Found> => {
  if (item.kind === "click") {
    const clickId = item.payload.metadata.clickId
    const moment = (event.moments ?? []).find((m) => m.metadata?.["clickId"] === clickId)
    return moment === undefined ? Option.none() : Option.some({ eventKey: event.key, momentKey: moment.key })
  }
  // An undo is a delete, harmless to repeat: it is never read back (see the deliverer).
  if (item.kind === "undo") return Option.none()
  const entry = item.payload
  const stored = (event.scoreStream ?? []).find((s) => s.timeStamp === entry.timeStamp && sameScore(s, entry))
  return stored === undefined ? Option.none() : Option.some({ eventKey: event.key, key: stored.key })
}

/**
 * After an attempt whose outcome is unknown (timeout or reset once the request
 * was written, or the process died mid-request), reads the event back and says
 * whether the service already has the item — so a retry never duplicates a
 * score entry or a moment. `eventKey` is where it would be; none → not found.
 */
export const reconcile = (
  client: ServiceClient["Service"],
  item: OutboxItem,
  eventKey: string | null
): Effect.Effect<Option.Option<Found>, ServiceError> =>
  eventKey === null
    ? Effect.succeed(Option.none())
    : client.getEvent(eventKey).pipe(Effect.map((event) => findInEvent(item, event)))
