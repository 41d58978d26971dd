// Deep imports: the package's index also loads NodeRedis (the redis client) and a dozen other
// modules the bridge never uses, which cost ~0.3 s of start-up and tens of MB of RSS.
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect } from "effect"
import { Command } from "effect/cli"
import { demoCommand } from "../demo/demo-command.ts"
import { bridgeVersion } from "../domain/version.ts"
import { captureCommand } from "./capture-command.ts"
import { checkCommand } from "./check-command.ts"
import { doctorCommand } from "./doctor-command.ts"
import { learnCommand } from "./learn-command.ts"
import { overlayPreviewCommand } from "./overlay-preview-command.ts"
import { outboxCommand } from "./outbox-command.ts"
import { replayCommand } from "./replay-command.ts"
import { runCommand } from "./run-command.ts"
import { setupCommand } from "./setup-command.ts"
import { simCommand } from "./sim-command.ts"
import { sniffCommand } from "./sniff-command.ts"
import { upgradeGuardCommand } from "./upgrade-guard-command.ts"
import { upgradeWindowCommand } from "./upgrade-window-command.ts"

const root = Command.make("scorebridge").pipe(
  Command.withDescription("Bridges venue scoreboards and courtside buttons to the Event Highlights Service"),
  Command.withSubcommands([
    runCommand,
    checkCommand,
    doctorCommand,
    setupCommand,
    sniffCommand,
    captureCommand,
    learnCommand,
    replayCommand,
    overlayPreviewCommand,
    outboxCommand,
    upgradeWindowCommand,
    upgradeGuardCommand,
    demoCommand,
    simCommand
  ])
)

/** Every command, parsed by effect/cli from process.argv. */
export const main = (): void =>
  root.pipe(
    Command.run({ version: bridgeVersion }),
    Effect.provide(NodeServices.layer),
    NodeRuntime.runMain
  )
