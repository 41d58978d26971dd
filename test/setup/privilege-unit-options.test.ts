import { describe, expect, it } from "vitest"
import { startsSetupUnit } from "../../src/setup/privilege/setup-unit.ts"
import { environmentFileText, optionsOfEnvironmentFile, unitArguments, unitPortProblem } from "../../src/setup/privilege/unit-options.ts"

/**
 * What `sudo scorebridge setup` hands the setup unit (only --lan and --port, through
 * /run/scorebridge-setup.env) and when it starts the unit at all instead of serving the page itself.
 */
describe("the setup unit's options", () => {
  it("are --lan and --port N, in the env file's one line", () => {
    expect(unitArguments({ lan: true, port: 8380 })).toEqual(["--lan", "--port", "8380"])
    expect(environmentFileText({ lan: true, port: 8380 })).toBe("SCOREBRIDGE_SETUP_OPTIONS=--lan --port 8380\n")
    expect(environmentFileText({ lan: false, port: 9000 })).toBe("SCOREBRIDGE_SETUP_OPTIONS=--port 9000\n")
  })

  it("read back from a file the launcher wrote, and from nothing else", () => {
    for (const options of [{ lan: true, port: 8380 }, { lan: false, port: 65535 }]) expect(optionsOfEnvironmentFile(environmentFileText(options))).toEqual(options)
    for (const text of ["", "SCOREBRIDGE_SETUP_OPTIONS=--port 80\n", "SCOREBRIDGE_SETUP_OPTIONS=--port 8380 --config /tmp/x\n", "SCOREBRIDGE_CONFIG=/tmp/x\nSCOREBRIDGE_SETUP_OPTIONS=--port 8380\n"]) {
      expect(optionsOfEnvironmentFile(text), text).toBeUndefined()
    }
  })

  it("take a port from 1024 to 65535 only: the unit holds no capability to bind below", () => {
    for (const port of [1024, 8380, 65535]) expect(unitPortProblem(port)).toBeUndefined()
    for (const port of [0, 80, 1023, 65536, 8380.5]) expect(unitPortProblem(port), String(port)).toMatch(/^--port must be 1024–65535: /u)
  })
})

describe("when scorebridge setup starts the unit", () => {
  const installed = new Set(["/run/systemd/system", "/lib/systemd/system/scorebridge-setup.service"])
  const machine = (paths: ReadonlySet<string>, euid = 0) => ({ exists: (path: string) => paths.has(path), euid })

  it("installed, systemd running, root, the installed config: the unit", () => {
    expect(startsSetupUnit(machine(installed), "/etc/scorebridge/config.yaml")).toBe(true)
    for (const dir of ["/usr/lib/systemd/system", "/etc/systemd/system"]) {
      expect(startsSetupUnit(machine(new Set(["/run/systemd/system", `${dir}/scorebridge-setup.service`])), "/etc/scorebridge/config.yaml"), dir).toBe(true)
    }
  })

  it("anything else serves the page in this process, as the invoking user (a checkout, another config, no systemd, not root)", () => {
    expect(startsSetupUnit(machine(installed), "/home/tech/scorebridge/config.yaml")).toBe(false)
    expect(startsSetupUnit(machine(installed, 1000), "/etc/scorebridge/config.yaml")).toBe(false)
    expect(startsSetupUnit(machine(new Set(["/lib/systemd/system/scorebridge-setup.service"])), "/etc/scorebridge/config.yaml")).toBe(false)
    expect(startsSetupUnit(machine(new Set(["/run/systemd/system"])), "/etc/scorebridge/config.yaml")).toBe(false)
  })
})
