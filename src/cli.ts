#!/usr/bin/env node
import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Effect } from "effect"
import { Command } from "effect/cli"
import { demoCommand } from "./demo/demo-command.ts"
import { checkCommand } from "./cli/check-command.ts"
import { overlayPreviewCommand } from "./cli/overlay-preview-command.ts"
import { outboxCommand } from "./cli/outbox-command.ts"
import { replayCommand } from "./cli/replay-command.ts"
import { runCommand } from "./cli/run-command.ts"
import { simCommand } from "./cli/sim-command.ts"

const root = Command.make("scorebridge").pipe(
  Command.withDescription("Bridges venue scoreboards and courtside buttons to the Event Highlights Service"),
  Command.withSubcommands([runCommand, checkCommand, outboxCommand, replayCommand, overlayPreviewCommand, demoCommand, simCommand])
)

root.pipe(
  Command.run({ version: "0.1.0" }),
  Effect.provide(NodeServices.layer),
  NodeRuntime.runMain
)
