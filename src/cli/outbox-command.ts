import { Effect } from "effect"
import { Command, Flag } from "effect/cli"
import { loadConfig } from "../config/load.ts"
import { ClipFollowUps, type KindItem, Outbox, OutboxHealth, type OutboxItem, OutboxItems } from "../delivery/outbox.ts"
import { isAutoClick } from "../domain/click-origin.ts"
import { clipOutcomeText } from "../clip-follow-up/outcome-text.ts"
import type { FollowUp } from "../domain/follow-up.ts"
import { configFlag, exitConfigError } from "./config-flag.ts"
import { printError, printLine } from "./printable.ts"

const line = (item: OutboxItem): string =>
  `  #${item.id} ${item.place} ${item.kind} captured ${new Date(item.createdAt).toISOString()} ` +
  `attempts ${item.attempts}: ${item.lastError ?? ""}`

const clock = (ms: number) => `${new Date(ms).toISOString().slice(11, 19)}Z`

/** A click and what became of it: its delivery, then its clip once the service accepted it. */
const clickLine = (click: KindItem<"click">, followUp: FollowUp | undefined): string => {
  const made = isAutoClick(click.payload) ? "auto" : "press"
  const delivery = click.state === "pending" ? "not sent yet" : click.state === "delivered" ? "accepted" : `${click.state}: ${click.lastError ?? ""}`
  const clip = followUp === undefined ? "" : ` → ${clipOutcomeText(followUp)}${followUp.detail?.videoURL === undefined ? "" : ` ${followUp.detail.videoURL}`}`
  return `  #${click.id} ${clock(click.createdAt)} ${made.padEnd(5)} ${delivery}${clip}`
}

export const outboxCommand = Command.make(
  "outbox",
  {
    config: configFlag,
    limit: Flag.Int("limit").pipe(Flag.withDescription("How many dead letters to list"), Flag.withDefault(20)),
    clicks: Flag.Int("clicks").pipe(Flag.withDescription("How many recent clicks to list per place, with their clip outcome"), Flag.withDefault(10))
  },
  Effect.fn(function*({ config: path, limit, clicks }) {
    const config = yield* loadConfig(path).pipe(Effect.result)
    if (config._tag === "Failure") {
      yield* printError(config.failure.message)
      process.exitCode = exitConfigError
      return
    }
    yield* Effect.gen(function*() {
      const outbox = yield* OutboxItems
      const counts = yield* (yield* OutboxHealth).counts
      yield* printLine(`outbox ${config.success.stateDirectory}/outbox.sqlite`)
      if (counts.length === 0) yield* printLine("  empty")
      for (const c of counts) yield* printLine(`  ${c.place.padEnd(16)} ${c.kind.padEnd(6)} ${c.state.padEnd(10)} ${c.count}`)
      for (const place of new Set(counts.filter((c) => c.state === "pending").map((c) => c.place))) {
        const oldest = (yield* outbox.heads).filter((h) => h.place === place)
        for (const head of oldest) yield* printLine(`pending head of ${place}:\n${line(head)}`)
      }
      const dead = yield* outbox.deadLetters(limit)
      if (dead.length > 0) yield* printLine(`dead letters (the service refused them; they will not be retried):`)
      for (const item of dead) yield* printLine(line(item))
      for (const place of config.success.places) {
        // Clicks are a small part of a place's items: read enough of them to find the latest few.
        const recent = (yield* outbox.recent(place.key, clicks * 50)).filter((item) => item.kind === "click").slice(0, clicks)
        if (recent.length === 0) continue
        yield* printLine(`recent clicks of ${place.key} (newest first):`)
        for (const click of recent) yield* printLine(clickLine(click, yield* (yield* ClipFollowUps).followUpOf(click.id)))
      }
    }).pipe(Effect.provide(Outbox.layer({ stateDirectory: config.success.stateDirectory })))
  })
).pipe(Command.withDescription("Show what the outbox holds: counts per place and state, pending heads, dead letters, recent clicks and their clips"))
