import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { expect } from "vitest"
import { startSimulator } from "../../simulator/index.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { type ScorebridgeProcess, startScorebridge } from "../../scripts/support/scorebridge-process.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { journalPath } from "../../src/setup/config/change-journal.ts"
import { keptDirectory } from "../../src/setup/config/kept-versions.ts"
import { setupEnvironment } from "../../src/setup/setup-environment.ts"
import { giveToSetupUser } from "../support/checkout-owner.ts"
import type { Resources } from "../support/resources.ts"
import { type Answer, ask, cookieFrom } from "./setup-http.ts"

/**
 * `scorebridge setup` as a process on a copy of the commented example config
 * config/bodet-hall-tcp.yaml, pointed at the service simulator, asked over loopback HTTP as a
 * browser would. `logger` and `systemctl` are stand-ins first on its PATH that write their
 * arguments to files here: a save never reloads or logs into the test machine's own services,
 * and the test reads what syslog and systemd would have been told.
 */
export const companyKey = "floorball-hall"
export const unit = "scorebridge-test.service"

export interface SetupProcess {
  readonly setup: ScorebridgeProcess
  readonly port: number
  readonly configPath: string
  readonly configDirectory: string
  /** What `logger -t scorebridge-setup` was given, one line per call. */
  readonly syslog: () => ReadonlyArray<string>
  /** What `systemctl` was given (a reload after each save), one line per call. */
  readonly reloads: () => ReadonlyArray<string>
  /** Logs in with the code printed last and waits for the next code; the session's cookie. */
  readonly logIn: () => Promise<string>
  readonly get: (path: string, cookie: string) => Promise<Answer>
  readonly post: (path: string, cookie: string, body: unknown) => Promise<Answer>
}

export interface SetupProcessOptions {
  /** Tokens the simulator accepts for the organization. */
  readonly tokens?: ReadonlyArray<string>
  /** Added to the process's environment (`undefined` unsets). */
  readonly env?: Readonly<Record<string, string | undefined>>
}

const codeLine = /^setup code: ([A-Z2-9]{4}-[A-Z2-9]{4})$/gmu

/** Every code the server has printed so far, oldest first. */
export const printedCodes = (setup: ScorebridgeProcess): Array<string> => [...setup.stdout().matchAll(codeLine)].map((match) => match[1]!)

/** The example, its service the simulator's: every comment of it is still there. */
export const commentedConfig = (baseUrl: string): string => {
  const example = readFileSync(join(import.meta.dirname, "../../config/bodet-hall-tcp.yaml"), "utf8")
  const adjusted = example.replace("baseUrl: https://api.example.com", `baseUrl: ${baseUrl}`)
  expect(adjusted).not.toBe(example)
  expect(adjusted).toContain(`companyKey: ${companyKey}\n`)
  return adjusted
}

/** A shell script at `path` that appends its arguments as one line to `record`. */
const recorder = (path: string, record: string) => {
  writeFileSync(path, `#!/bin/sh\nprintf '%s\\n' "$*" >> '${record}'\n`)
  chmodSync(path, 0o755)
}

const linesOf = (path: string): ReadonlyArray<string> => existsSync(path) ? readFileSync(path, "utf8").split("\n").filter((line) => line !== "") : []

const startService = async (res: Resources, tokens: ReadonlyArray<string>) => {
  const sim = await startSimulator({
    port: 0,
    seed: {
      organizations: [{
        key: companyKey,
        name: "Floorball hall",
        tokens: [...tokens],
        places: [{ key: "court-a", name: "Court A", sport: "unihockey" }, { key: "court-b", name: "Court B", sport: "handball" }]
      }]
    }
  })
  res.defer(() => sim.close())
  return sim
}

const login = (setup: ScorebridgeProcess, port: number) => async () => {
  const codes = printedCodes(setup)
  const answer = await ask(port, { method: "POST", path: "/login", form: { code: codes.at(-1)! } })
  expect(answer.status, answer.body).toBe(303)
  // The next browser's code, printed once this one is used up.
  await eventually("the next setup code", () => printedCodes(setup).length > codes.length || undefined)
  return cookieFrom(answer)
}

/** Starts the simulator and `scorebridge setup --unit scorebridge-test.service` on the commented config. */
export const startSetupProcess = async (res: Resources, name: string, options: SetupProcessOptions = {}): Promise<SetupProcess> => {
  const dir = tempDir(name, res)
  const sim = await startService(res, options.tokens ?? ["a-token-the-test-never-stores"])
  const configDirectory = join(dir, "etc")
  const bin = join(dir, "bin")
  mkdirSync(configDirectory)
  mkdirSync(bin)
  const configPath = join(configDirectory, "config.yaml")
  writeFileSync(configPath, commentedConfig(sim.url))
  recorder(join(bin, "logger"), join(dir, "syslog.lines"))
  recorder(join(bin, "systemctl"), join(dir, "systemctl.lines"))
  // Started as root, setup serves as the config's owner: the technician's checkout is theirs.
  giveToSetupUser(dir)
  const port = await freePort()
  const setup = startScorebridge(["setup", "--config", configPath, "--port", String(port), "--unit", unit], {
    env: { PATH: `${bin}:${process.env["PATH"] ?? ""}`, CREDENTIALS_DIRECTORY: undefined, SCOREBRIDGE_TOKEN: undefined, ...options.env }
  })
  res.defer(() => setup.stop())
  await eventually("the setup server's first code", () => {
    if (setup.hasExited()) throw new Error(`scorebridge setup exited: ${setup.stdout()} ${setup.stderr()}`)
    return printedCodes(setup)[0]
  }, { timeoutMs: 20_000 })
  return {
    setup,
    port,
    configPath,
    configDirectory,
    syslog: () => linesOf(join(dir, "syslog.lines")),
    reloads: () => linesOf(join(dir, "systemctl.lines")),
    logIn: login(setup, port),
    get: (path, cookie) => ask(port, { path, cookie }),
    post: (path, cookie, body) => ask(port, { method: "POST", path, cookie, json: JSON.stringify(body) })
  }
}

export const jsonOf = (answer: Answer): any => JSON.parse(answer.body)

/** The server's own paths for its config: where it keeps versions and journals changes. */
const environmentOf = (served: SetupProcess) => setupEnvironment(served.configPath, { _tag: "none" })

/** `config.yaml.previous/`'s versions, oldest first; none before the first save. */
export const keptVersions = (served: SetupProcess): ReadonlyArray<string> => {
  const kept = keptDirectory(environmentOf(served))
  return existsSync(kept) ? readdirSync(kept).sort().map((name) => join(kept, name)) : []
}

/** `<configDir>/config-changes.log`. */
export const journalFile = (served: SetupProcess): string => journalPath(environmentOf(served))
