import { Effect, Schedule } from "effect"
import { BridgeEvents } from "../bus/bridge-events.ts"
import { type OutboxItem, OutboxItems } from "../delivery/outbox.ts"
import type { Finish } from "../domain/race.ts"
import type { Reading } from "../domain/reading.ts"
import { type AutoHighlightSettings, autoHighlightItems } from "../highlights/auto-highlighter.ts"
import { finishHighlights } from "../highlights/finish-moments.ts"
import { madeFinishes } from "../highlights/made-finishes.ts"
import { RaceFinishes } from "../highlights/race-finishes.ts"

/** Items read back at the first race reading for the finishes already made: several races' worth. */
const madeLookback = 100

/** Finishes kept in memory while the outbox refuses their clicks: more than a heat's lanes. */
const maxUnstored = 24

const clickOf = (stored: ReadonlyArray<OutboxItem>, finish: Finish): OutboxItem | undefined =>
  stored.find((item) =>
    item.kind === "click" && item.payload.timeStamp === finish.at && item.payload.metadata.finish?.lane === finish.lane
  )

const words = (finish: Finish): string =>
  `lane ${finish.lane}, place ${finish.place}, ${finish.time}`
  + (finish.event === undefined ? "" : `, event ${finish.event}`) + (finish.heat === undefined ? "" : ` heat ${finish.heat}`)

/**
 * Where a place's race goes (a timing console's readings carry `race`): the race tracker, started
 * at the first race reading and told the finishes the outbox already holds clicks of; each finish
 * it settles is published on the bus (`Finish`, with its click's item), and the ones the place's
 * `finish` rule selects are stored as clicks. A serial line cannot be asked again, so a finish whose
 * click the outbox refused is kept and tried again with the next reading; a broker message is
 * acknowledged only once its finishes are stored.
 */
export const makeFinishStore = Effect.fnUntraced(function*(place: string, sport: string, autos: AutoHighlightSettings | undefined) {
  const outbox = yield* OutboxItems
  const bus = yield* BridgeEvents
  const rules = autos?.rules ?? []
  let tracker: RaceFinishes | undefined
  let unstored: ReadonlyArray<Finish> = []

  const startTracker = Effect.gen(function*() {
    const recent = yield* outbox.recent(place, madeLookback).pipe(Effect.catch((e) =>
      Effect.as(Effect.logWarning(`${place}: the finishes made before this start could not be read (${e.message}); one of them may be made again`), [])
    ))
    return new RaceFinishes({ made: madeFinishes(recent) })
  })

  const storeClicks = Effect.fnUntraced(function*(finishes: ReadonlyArray<Finish>, redeliverable: boolean) {
    const highlights = finishHighlights(finishes, rules, sport)
    if (highlights.length === 0 || autos === undefined) return []
    const items = yield* autoHighlightItems(place, autos, highlights, undefined)
    return items.length === 0 ? [] : yield* outbox.appendAll(items, { wait: redeliverable ? "disk" : "commit" })
  })

  const store = (finishes: ReadonlyArray<Finish>, redeliverable: boolean) =>
    redeliverable
      ? storeClicks(finishes, true).pipe(
        Effect.tapError((e) => Effect.logError(`${place}: finish clicks NOT stored, not acknowledged to the broker, retrying: ${e.message}`)),
        Effect.retry(Schedule.spaced("1 second"))
      )
      : storeClicks([...unstored, ...finishes], false).pipe(
        Effect.tap(() => Effect.sync(() => { unstored = [] })),
        Effect.catch((e) => {
          unstored = [...unstored, ...finishes].slice(-maxUnstored)
          // Said once per finish, not at every reading the kept ones are tried again with.
          return finishes.length === 0
            ? Effect.succeed([])
            : Effect.as(Effect.logError(`${place}: finish clicks NOT stored, will retry with the next reading: ${e.message}`), [])
        })
      )

  return {
    /** A reading of the place's board: the finishes its race board settles, published and (by the rule) stored as clicks. */
    read: Effect.fnUntraced(function*(reading: Reading, redeliverable: boolean) {
      if (reading.race === undefined) return
      tracker ??= yield* startTracker
      const finishes = tracker.onReading(reading)
      if (finishes.length === 0 && unstored.length === 0) return
      const stored = yield* store(finishes, redeliverable)
      for (const finish of finishes) {
        const click = clickOf(stored, finish)
        yield* Effect.logInfo(`${place}: finish ${words(finish)}${click === undefined ? "" : `: auto-highlight #${click.id} queued`}`)
        yield* bus.publish({ _tag: "Finish", place, finish, ...(click === undefined ? {} : { clickItemId: click.id }) })
      }
    })
  }
})
