import { Console, Effect } from "effect"
import { Command, Flag } from "effect/cli"
import { loadConfig } from "../config/load.ts"
import { Outbox, type OutboxItem } from "../delivery/outbox.ts"
import { configFlag, exitConfigError } from "./config-flag.ts"

const line = (item: OutboxItem): string =>
  `  #${item.id} ${item.place} ${item.kind} captured ${new Date(item.createdAt).toISOString()} ` +
  `attempts ${item.attempts}: ${item.lastError ?? ""}`

export const outboxCommand = Command.make(
  "outbox",
  {
    config: configFlag,
    limit: Flag.Int("limit").pipe(Flag.withDescription("How many dead letters to list"), Flag.withDefault(20))
  },
  Effect.fn(function*({ config: path, limit }) {
    const config = yield* loadConfig(path).pipe(Effect.result)
    if (config._tag === "Failure") {
      yield* Console.error(config.failure.message)
      process.exitCode = exitConfigError
      return
    }
    yield* Effect.gen(function*() {
      const outbox = yield* Outbox
      const counts = yield* outbox.counts
      yield* Console.log(`outbox ${config.success.stateDirectory}/outbox.sqlite`)
      if (counts.length === 0) yield* Console.log("  empty")
      for (const c of counts) yield* Console.log(`  ${c.place.padEnd(16)} ${c.kind.padEnd(6)} ${c.state.padEnd(10)} ${c.count}`)
      for (const place of new Set(counts.filter((c) => c.state === "pending").map((c) => c.place))) {
        const oldest = (yield* outbox.heads).filter((h) => h.place === place)
        for (const head of oldest) yield* Console.log(`pending head of ${place}:\n${line(head)}`)
      }
      const dead = yield* outbox.deadLetters(limit)
      if (dead.length > 0) yield* Console.log(`dead letters (the service refused them; they will not be retried):`)
      for (const item of dead) yield* Console.log(line(item))
    }).pipe(Effect.provide(Outbox.layer({ stateDirectory: config.success.stateDirectory })))
  })
).pipe(Command.withDescription("Show what the outbox holds: counts per place and state, pending heads, dead letters"))
