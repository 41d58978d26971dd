import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Effect } from "effect"
import { runSniff } from "../../src/cli/sniff-command.ts"

// `scorebridge sniff …` as a real process, until the lead wires the command into src/cli.ts.
runSniff(process.argv.slice(2)).pipe(Effect.provide(NodeServices.layer), NodeRuntime.runMain)
