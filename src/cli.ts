#!/usr/bin/env node
// Two ways in. `scorebridge run` as systemd starts it loads the daemon alone; every other command
// line goes to the full CLI (effect/cli, every command). Each side is a dynamic import, so the
// bundle splits them (scripts/build.ts) and the daemon, which runs for weeks, never loads nor
// keeps the code of the commands it does not run (docs/architecture.md, "How the daemon runs").
import { daemonConfigArgument } from "./cli/daemon-arguments.ts"

const daemonConfig = daemonConfigArgument(process.argv.slice(2))
if (daemonConfig !== undefined) (await import("./cli/daemon-main.ts")).main(daemonConfig)
else (await import("./cli/commands.ts")).main()
