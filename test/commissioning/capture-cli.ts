import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Effect } from "effect"
import { runCapture } from "../../src/cli/capture-command.ts"

// `scorebridge capture …` as a real process, until the lead wires the command into src/cli.ts.
runCapture(process.argv.slice(2)).pipe(Effect.provide(NodeServices.layer), NodeRuntime.runMain)
