import { Predicate } from "effect"
import type { KindItem, OutboxItem } from "../delivery/outbox.ts"
import { isAutoClick } from "../domain/click-origin.ts"

/** Clicks looked at when a press and an auto-highlight may be one moment: a few seconds' worth at any pace. */
export const mergeLookback = 40

const near = (item: OutboxItem, at: number, withinMs: number): item is KindItem<"click"> =>
  item.kind === "click" && Math.abs(item.payload.timeStamp - at) <= withinMs

/**
 * A press that already made a click within `withinMs` of an auto-highlight's time: the press is
 * the highlight, the rule adds nothing. `recent` newest first, as OutboxItems.recent returns them.
 * A press that made nothing (no event, rejected) does not count.
 */
export const pressNear = (recent: ReadonlyArray<OutboxItem>, at: number, withinMs: number): KindItem<"click"> | undefined =>
  withinMs <= 0 ? undefined : recent.find((item): item is KindItem<"click"> =>
    near(item, at, withinMs) && !isAutoClick(item.payload) && item.state !== "dead" && item.state !== "warning"
  )

/**
 * A finish click is its own swimmer's clip: a press near a touch (a coach's, another lane's
 * finish) is another moment, so it neither replaces the finish nor is held back by it.
 */
export const isFinishClick = (item: KindItem<"click">): boolean => item.payload.metadata.rule === "finish"

/**
 * The auto-highlights a press at `at` replaces: those within `withinMs`, finishes aside. Not yet
 * sent ones are merged away (never sent); ones already sent or delivered are taken back with an
 * undo, so the place keeps one click for the moment either way.
 */
export const autosNear = (recent: ReadonlyArray<OutboxItem>, at: number, withinMs: number) => {
  const autos = withinMs <= 0 ? [] : recent.filter((item): item is KindItem<"click"> =>
    near(item, at, withinMs) && isAutoClick(item.payload) && !isFinishClick(item) && (item.state === "pending" || item.state === "delivered")
  )
  return {
    unsent: autos.filter((item) => item.state === "pending" && item.sentAt === null),
    sent: autos.filter((item) => item.state === "delivered" || item.sentAt !== null)
  }
}

/** Settled as missed without a request (see auto-footage.ts): its result is `{ skipped: true }`. */
const skippedUnsent = (result: unknown): boolean =>
  Predicate.isObject(result) && "skipped" in result && result.skipped === true

/** An auto-highlight that will make no moment: merged into a press, rejected, or skipped unsent. */
export const autoMadeNothing = (item: OutboxItem): boolean =>
  item.kind === "click" && isAutoClick(item.payload) &&
  (item.state === "warning" || item.state === "dead" || (item.state === "missed" && skippedUnsent(item.result)))
