import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { runDaemon } from "./run-daemon.ts"

/**
 * `scorebridge run` in one of its plain forms (daemon-arguments.ts). The daemon needs none of the
 * platform services the full CLI provides (file system, terminal, child processes): its effect
 * requires nothing, so none of them is loaded.
 */
export const main = (configPath: string): void => runDaemon(configPath).pipe(NodeRuntime.runMain)
