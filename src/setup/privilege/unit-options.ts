/**
 * What passes from `sudo scorebridge setup` to the setup unit: only `--lan` and `--port N`, through
 * /run/scorebridge-setup.env (EnvironmentFile= of scorebridge-setup.service). The unit checks them
 * again (`--serve-unit`): a hand-written file names nothing else, no config, no reload, no program.
 */
export interface UnitOptions {
  readonly lan: boolean
  readonly port: number
}

/** The unit holds no capability: a port below 1024 could not be bound, so it is refused before anything starts. */
export const unitPorts = { lowest: 1024, highest: 65535 } as const

/** Why the port cannot be the unit's, or undefined. */
export const unitPortProblem = (port: number): string | undefined =>
  Number.isInteger(port) && port >= unitPorts.lowest && port <= unitPorts.highest
    ? undefined
    : `--port must be ${unitPorts.lowest}–${unitPorts.highest}: the setup unit runs without privileges and cannot bind a port below ${unitPorts.lowest}`

/** The words `--serve-unit` is given after it (systemd splits $SCOREBRIDGE_SETUP_OPTIONS on spaces). */
export const unitArguments = (options: UnitOptions): ReadonlyArray<string> => [...(options.lan ? ["--lan"] : []), "--port", String(options.port)]

export const optionsVariable = "SCOREBRIDGE_SETUP_OPTIONS"

/** The whole of /run/scorebridge-setup.env. */
export const environmentFileText = (options: UnitOptions): string => `${optionsVariable}=${unitArguments(options).join(" ")}\n`

/** The options a file written by `environmentFileText` names; undefined for anything else (a hand edit: the unit is restarted with ours). */
export const optionsOfEnvironmentFile = (text: string): UnitOptions | undefined => {
  const match = new RegExp(`^${optionsVariable}=(--lan )?--port (\\d{1,5})\\n$`, "u").exec(text)
  if (match === null) return undefined
  const port = Number(match[2])
  return unitPortProblem(port) === undefined ? { lan: match[1] !== undefined, port } : undefined
}

export const sameOptions = (a: UnitOptions, b: UnitOptions): boolean => a.lan === b.lan && a.port === b.port
