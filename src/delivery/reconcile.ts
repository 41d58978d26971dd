import { Effect, Option } from "effect"
import type { ScoreEntry } from "../domain/score-entry.ts"
import type { ServiceClient } from "../service/client.ts"
import type { ServiceError } from "../service/errors.ts"
import type { ClickBody, Event } from "../service/schemas.ts"
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
    ? Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]))
    : value

/** Looks for the item in a snapshot of its event: a click by its id in a moment's metadata, a score by time and values. */
export const findInEvent = (item: OutboxItem, event: Event): Option.Option<Found> => {
  if (item.kind === "click") {
    const clickId = (item.payload as ClickBody).metadata?.["clickId"]
    const moment = (event.moments ?? []).find((m) => m.metadata?.["clickId"] === clickId)
    return moment === undefined ? Option.none() : Option.some({ eventKey: event.key, momentKey: moment.key })
  }
  const entry = item.payload as ScoreEntry
  const stored = (event.scoreStream ?? []).find((s) => s.timeStamp === entry.timeStamp && sameScore(s as Record<string, unknown>, entry))
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
