import { Array as Arr, Effect, Option, Result } from "effect"
import { type ItemKind, itemKinds } from "../domain/item-kinds.ts"
import { OutboxReadError, readingFrom } from "./outbox-errors.ts"
import { decodeItem, decodeLane, isKind, type KindItem, type MalformedItem, type OutboxItem } from "./outbox-item.ts"
import type { ScoreLane } from "./lanes.ts"
import { type LiveEvent, scoreHeadsOf } from "./outbox-score-heads.ts"
import type { OutboxStatements } from "./outbox-statements.ts"

interface Decoded {
  readonly items: Array<OutboxItem>
  readonly malformed: Array<MalformedItem>
}

/**
 * At most `limit` items (negative: all, as SQLite's LIMIT), in the rows' order. A row that cannot
 * be read is passed over like a dead letter, so that one bad row holds up neither its lane nor
 * the others (before rows were decoded, it failed every `heads` and stopped all delivery).
 */
const collect = (rows: () => Iterable<unknown>, limit: number, goOn: (item: OutboxItem) => boolean = () => true): Decoded => {
  const decoded: Decoded = { items: [], malformed: [] }
  if (limit === 0) return decoded
  // Breaking out of the loop resets the statement, ending its read of the database.
  for (const row of rows()) {
    const item = decodeItem(row)
    if (Result.isFailure(item)) decoded.malformed.push(item.failure)
    else if (!goOn(item.success) || decoded.items.push(item.success) === limit) break
  }
  return decoded
}

/** For each lane its oldest pending item; a malformed head is passed over for the next readable item of its lane. */
const headsOf = (sql: OutboxStatements): Decoded => {
  const decoded: Decoded = { items: [], malformed: [] }
  for (const row of sql.heads.all()) {
    const head = decodeItem(row)
    if (Result.isSuccess(head)) {
      decoded.items.push(head.success)
      continue
    }
    decoded.malformed.push(head.failure)
    const lane = decodeLane(row)
    if (Option.isNone(lane)) continue
    const next = laneFrom(sql, lane.value.place, lane.value.kind, lane.value.id, 1)
    decoded.items.push(...next.items)
    decoded.malformed.push(...next.malformed)
  }
  // A lane's next readable item can be newer than other lanes' heads.
  decoded.items.sort((a, b) => a.id - b.id)
  return decoded
}

/** A lane with pending items, as the scheduler walks them: which, and its oldest pending item's id. */
export interface PendingLane {
  readonly place: string
  readonly kind: ItemKind
  readonly headId: number
}

const kinds: ReadonlySet<unknown> = new Set(itemKinds)

/**
 * The lanes with pending items, oldest head first. Checked by hand, not by Schema: read at every
 * scheduler wake, and the table's CHECKs already hold kind and place to these types.
 */
const lanesOf = (sql: OutboxStatements): Array<PendingLane> =>
  sql.lanes.all().flatMap((row) => {
    const { place, kind, id } = row
    return typeof place === "string" && kinds.has(kind) && typeof id === "number"
      ? [{ place, kind: kind as ItemKind, headId: id }]
      : []
  })

const laneFrom = (sql: OutboxStatements, place: string, kind: ItemKind, after: number, limit: number) =>
  collect(() => sql.pending.iterate({ place, kind, after }), limit)

/** Logs each malformed item once: the scheduler reads the heads at every wake, and the row stays until someone acts. */
const malformedReporter = (file: string) => {
  const reported = new Set<number | null>()
  return (malformed: ReadonlyArray<MalformedItem>) =>
    Effect.forEach(malformed, (item) => {
      if (reported.has(item.id)) return Effect.void
      reported.add(item.id)
      return Effect.logError(
        `outbox ${file}: ${item.message}; it is left in the file as it is and passed over: a pending one is not sent, the items after it are`
      )
    }, { discard: true })
}

/** The items' queries: rows decoded into items, malformed ones reported and left where they are. */
export const makeReads = (sql: OutboxStatements, file: string) => {
  const read = readingFrom(file)
  const report = malformedReporter(file)
  const many = (run: () => Decoded) => Effect.flatMap(read(run), ({ items, malformed }) => Effect.as(report(malformed), items))

  return {
    heads: many(() => headsOf(sql)).pipe(Effect.withSpan("Outbox.heads")),
    lanes: read(() => lanesOf(sql)),
    // A lane's rows are all of its kind (the query asks for it): the filter only says so to the compiler.
    pending: <K extends ItemKind>(place: string, kind: K, limit: number): Effect.Effect<ReadonlyArray<KindItem<K>>, OutboxReadError> =>
      many(() => laneFrom(sql, place, kind, 0, limit)).pipe(Effect.map(Arr.filter(isKind(kind))), Effect.withSpan("Outbox.pending")),
    // Asked for by id, a malformed item is an error: there is no other item to give instead.
    get: Effect.fn("Outbox.get")(function*(id: number) {
      const row = yield* read(() => sql.byId.get({ id }))
      if (row === undefined) return yield* Effect.succeedNone
      return yield* Result.match(decodeItem(row), {
        onSuccess: Effect.succeedSome,
        onFailure: (malformed) => Effect.fail(new OutboxReadError({ path: file, reason: malformed.message }))
      })
    }),
    lastOf: <K extends ItemKind>(place: string, kind: K): Effect.Effect<Option.Option<KindItem<K>>, OutboxReadError> =>
      many(() => collect(() => sql.lastOf.iterate({ place, kind }), 1)).pipe(
        Effect.map((items) => Arr.findFirst(items, isKind(kind))),
        Effect.withSpan("Outbox.lastOf")
      ),
    recent: Effect.fn("Outbox.recent")((place: string, limit: number) =>
      many(() => collect(() => sql.recent.iterate({ place }), limit))
    ),
    recentWhile: Effect.fn("Outbox.recentWhile")((place: string, limit: number, goOn: (item: OutboxItem) => boolean) =>
      many(() => collect(() => sql.recent.iterate({ place }), limit, goOn))
    ),
    scoreHeads: Effect.fn("Outbox.scoreHeads")(function*(place: string, live: LiveEvent, lanes?: ReadonlyArray<ScoreLane>) {
      const { heads, malformed } = yield* read(() => scoreHeadsOf(sql, place, live, lanes))
      yield* report(malformed)
      return heads
    }),
    deadLetters: Effect.fn("Outbox.deadLetters")((limit: number) =>
      many(() => collect(() => sql.deadLetters.iterate(), limit))
    )
  }
}
