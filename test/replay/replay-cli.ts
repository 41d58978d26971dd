import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Effect } from "effect"
import { runReplay } from "../../src/cli/replay-command.ts"

// `scorebridge replay …` as a real process, until the lead wires `replay` into src/cli.ts.
runReplay(process.argv.slice(2)).pipe(Effect.provide(NodeServices.layer), NodeRuntime.runMain)
