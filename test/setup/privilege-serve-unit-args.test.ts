import { describe, expect, it } from "vitest"
import { startScorebridge } from "../../scripts/support/scorebridge-process.ts"

/**
 * `scorebridge setup --serve-unit`, the mode scorebridge-setup.service runs, takes only --lan and
 * --port beside it: whatever a hand-written /run/scorebridge-setup.env adds (another config, a
 * reload target, a privileged port) is refused before anything is opened (exit 2). And the
 * launcher's own flag, --stop, means nothing on a machine that has no setup unit.
 */
const refusal = async (args: ReadonlyArray<string>, env: Readonly<Record<string, string | undefined>> = {}) => {
  const setup = startScorebridge(["setup", ...args], { env })
  const exited = await setup.exited
  return { code: exited.code, stderr: setup.stderr(), stdout: setup.stdout() }
}

describe("scorebridge setup --serve-unit", () => {
  it("refuses another config, a reload target or --stop beside it", async () => {
    for (const extra of [["--config", "/tmp/elsewhere.yaml"], ["--daemon-pid", "1"], ["--unit", "sshd.service"], ["--stop"]]) {
      const { code, stderr } = await refusal(["--serve-unit", ...extra])
      expect({ extra, code, stderr: stderr.trim() }).toEqual({
        extra,
        code: 2,
        stderr: "--serve-unit takes only --lan and --port N (it always serves /etc/scorebridge/config.yaml); start it with sudo scorebridge setup"
      })
    }
  })

  it("refuses a config named through the environment (SCOREBRIDGE_CONFIG in the env file) too", async () => {
    const { code, stderr } = await refusal(["--serve-unit"], { SCOREBRIDGE_CONFIG: "/tmp/elsewhere.yaml" })
    expect(code).toBe(2)
    expect(stderr).toContain("--serve-unit takes only --lan and --port N")
  })

  it("refuses a port below 1024 (the unit has no capability to bind it) or above 65535", async () => {
    for (const port of ["80", "65536"]) {
      const { code, stderr } = await refusal(["--serve-unit", "--port", port])
      expect({ port, code, stderr: stderr.trim() }).toEqual({ port, code: 2, stderr: expect.stringMatching(/^--port must be 1024–65535: /u) })
    }
  })

  it.skipIf(process.geteuid?.() !== 0)("refuses to serve as root (typed by hand: the unit runs it as scorebridge-setup), before it opens anything", async () => {
    const { code, stderr, stdout } = await refusal(["--serve-unit", "--port", "8444"])
    expect(code).toBe(1)
    expect(stderr.trim()).toBe("--serve-unit is the mode scorebridge-setup.service runs as the user scorebridge-setup, never as root: start the page with sudo scorebridge setup")
    expect(stdout).not.toContain("setup page:")
  })
})

describe("scorebridge setup --stop without the setup unit (a checkout, no systemd)", () => {
  it("says what it is for (exit 2)", async () => {
    const { code, stderr } = await refusal(["--stop", "--config", "/tmp/elsewhere.yaml"])
    expect(code).toBe(2)
    expect(stderr).toContain("--stop stops the installed setup page")
  })
})
