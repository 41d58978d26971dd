import { Effect, Schema } from "effect"

// Each block has its defaults: the upgrade-window check and the upgrade guard read a config
// without `upgrades:` the same way.
const Window = Schema.Struct({
  waitForLiveEvents: Schema.Boolean.annotate({
    description: "Not a good moment to upgrade while any place has a running event.",
    default: true
  }).pipe(Schema.withDecodingDefaultKey(Effect.succeed(true))),
  waitForPendingClicks: Schema.Boolean.annotate({
    description: "Not a good moment to upgrade while a click or undo waits in the outbox.",
    default: true
  }).pipe(Schema.withDecodingDefaultKey(Effect.succeed(true))),
  maxDeferHours: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 24 * 30 })).annotate({
    description: "After deferring upgrades this long in a row (an event that never ends), allow the upgrade anyway, in hours.",
    default: 48
  }).pipe(Schema.withDecodingDefaultKey(Effect.succeed(48)))
}).annotate({ description: "When `scorebridge upgrade-window` lets an unattended upgrade run." })

const Guard = Schema.Struct({
  enabled: Schema.Boolean.annotate({
    description: "Roll back to the previous version by itself when a new one fails its watch.",
    default: true
  }).pipe(Schema.withDecodingDefaultKey(Effect.succeed(true))),
  watchMinutes: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 24 * 60 })).annotate({
    description: "How long a new version is watched after an upgrade, in minutes.",
    default: 15
  }).pipe(Schema.withDecodingDefaultKey(Effect.succeed(15))),
  maxRestarts: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 })).annotate({
    description: "More restarts of the service than this during the watch count as a restart loop.",
    default: 3
  }).pipe(Schema.withDecodingDefaultKey(Effect.succeed(3))),
  deliverWithinMinutes: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 24 * 60 })).annotate({
    description: "How long the new version may take to deliver while items are pending and the service answers, in minutes.",
    default: 10
  }).pipe(Schema.withDecodingDefaultKey(Effect.succeed(10)))
}).annotate({ description: "Watching a new version after an upgrade, and rolling it back." })

export const Upgrades = Schema.Struct({
  window: Window.pipe(Schema.withDecodingDefaultKey(Effect.succeed({}))),
  guard: Guard.pipe(Schema.withDecodingDefaultKey(Effect.succeed({})))
}).annotate({ description: "Unattended upgrades of the Debian package: when they may run, and the guard that rolls a bad one back." })

export type Upgrades = typeof Upgrades.Type
export type UpgradeWindowOptions = Upgrades["window"]
