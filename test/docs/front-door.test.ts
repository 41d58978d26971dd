import { spawnSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

/**
 * README's quick start and ten-minute path are what a new user types first: every command line
 * shown there is run here, or checked against the command's own --help (each flag it uses must
 * exist), so the front door cannot drift from the program.
 */
const repo = join(import.meta.dirname, "../..")
const readme = readFileSync(join(repo, "README.md"), "utf8")
const frontDoorSections = ["Quick start", "A court live in ten minutes"]

interface CommandLine {
  readonly section: string
  readonly text: string
  readonly words: ReadonlyArray<string>
}

/** The commands of the fenced code blocks under a `## ` heading, comments dropped, `&&` split. */
const commandsOf = (markdown: string, section: string): ReadonlyArray<CommandLine> => {
  const lines = markdown.split("\n")
  const start = lines.findIndex((line) => line === `## ${section}`)
  if (start === -1) return []
  const end = lines.findIndex((line, index) => index > start && line.startsWith("## "))
  const commands: Array<CommandLine> = []
  let inFence = false
  for (const line of lines.slice(start + 1, end === -1 ? undefined : end)) {
    if (/^\s*```/u.test(line)) {
      inFence = !inFence
      continue
    }
    if (!inFence) continue
    const code = line.replace(/\s+#.*$/u, "").trim()
    if (code === "" || code.startsWith("#")) continue
    for (const part of code.split("&&")) {
      const words = part.trim().split(/\s+/u)
      commands.push({ section, text: part.trim(), words: words[0] === "sudo" ? words.slice(1) : words })
    }
  }
  return commands
}

const run = (command: string, args: ReadonlyArray<string>) =>
  spawnSync(command, args, { cwd: repo, encoding: "utf8", timeout: 120_000 })

const helpOf = (command: string, args: ReadonlyArray<string>) => {
  const result = run(command, [...args, "--help"])
  expect(result.status, `${command} ${[...args, "--help"].join(" ")}: ${result.stderr}`).toBe(0)
  return result.stdout + result.stderr
}

const flagsOf = (words: ReadonlyArray<string>) => words.filter((word) => /^--?[a-z][a-z-]*$/u.test(word))

const expectFlagsIn = (help: string, command: CommandLine) => {
  for (const flag of flagsOf(command.words.slice(1))) {
    // A flag is listed in the help as itself, followed by a space, comma, `=` or the line's end.
    expect(new RegExp(`(^|[\\s,\\[])${flag}([\\s,=\\]]|$)`, "mu").test(help),
      `README shows \`${command.text}\`, but ${command.words[0]}'s --help has no ${flag}`).toBe(true)
  }
}

const unitFile = readFileSync(join(repo, "systemd/scorebridge.service"), "utf8")
const packageJson = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as { version: string; scripts: Record<string, string> }
const packageVersion = packageJson.version

/** What each command of the front door is checked by; a command with no check fails the test. */
const check = (command: CommandLine): void => {
  const [program, ...args] = command.words
  switch (program) {
    case "npm": {
      if (args[0] === "ci") {
        expect(existsSync(join(repo, "package-lock.json")), "npm ci needs package-lock.json").toBe(true)
        return
      }
      if (args[0] === "start") {
        // The demo, run for real as README shows it: the simulator must accept every entry it made.
        const result = run("npm", args)
        expect(result.status, result.stderr).toBe(0)
        const accepted = /The simulator accepted (\d+) of (\d+) score entries/u.exec(result.stdout)
        expect(accepted, result.stdout).not.toBeNull()
        expect(Number(accepted![1])).toBeGreaterThan(1)
        expect(accepted![1]).toBe(accepted![2])
        return
      }
      if (args[0] === "test") {
        // Running the suite from inside itself would recurse: check that it sets itself up, then runs vitest.
        expect(packageJson.scripts["test"]).toMatch(/^bash scripts\/system-deps\.sh && node scripts\/test-packages\.ts && vitest run$/u)
        return
      }
      break
    }
    case "scorebridge": {
      const subcommand = args[0]!
      const help = helpOf(join(repo, "bin/scorebridge"), [subcommand])
      expect(help, `scorebridge ${subcommand} --help`).toContain(`scorebridge ${subcommand}`)
      expectFlagsIn(help, command)
      return
    }
    case "apt": {
      // The package `npm run package` builds for this version, installed from its file.
      expect(args[0], command.text).toBe("install")
      expect(args[1], command.text).toMatch(new RegExp(`^\\./scorebridge_${packageVersion.replaceAll(".", "\\.")}_(amd64|arm64)\\.deb$`, "u"))
      expect(packageJson.scripts["package"]).toBe("node scripts/package.ts")
      expect(run("apt", ["--help"]).stdout, "apt has no verb install").toMatch(/^\s+install /mu)
      return
    }
    case "scorebridge-set-token": {
      // The packaged command, from its source: the token comes on stdin, as README shows it.
      const help = helpOf("sh", ["deploy/debian/scorebridge-set-token"])
      expect(help).toContain("sudo scorebridge-set-token < FILE")
      expect(args.slice(0, 1), command.text).toEqual(["<"])
      return
    }
    case "systemd/install.sh": {
      expectFlagsIn(helpOf("bash", ["systemd/install.sh"]), command)
      return
    }
    case "systemctl": {
      const [verb, unit] = args
      expect(unit, command.text).toBe("scorebridge")
      expect(run("systemctl", ["--help"]).stdout, `systemctl has no verb ${verb}`).toMatch(new RegExp(`^\\s+${verb} `, "mu"))
      // A reload is only accepted by a unit that says how to reload.
      if (verb === "reload") expect(unitFile).toMatch(/^ExecReload=/mu)
      return
    }
    case "journalctl": {
      expect(args[args.indexOf("-u") + 1], command.text).toBe("scorebridge")
      expectFlagsIn(helpOf("journalctl", []), command)
      return
    }
    case "sudoedit": {
      // The file the service reads: the unit's ExecStart names it.
      expect(args, command.text).toEqual(["/etc/scorebridge/config.yaml"])
      expect(unitFile).toMatch(/^ExecStart=.* --config \/etc\/scorebridge\/config\.yaml$/mu)
      return
    }
    case "ls": {
      expectFlagsIn(helpOf("ls", []), command)
      return
    }
  }
  expect.fail(`README's front door shows \`${command.text}\`, which no test checks: add a check to test/docs/front-door.test.ts`)
}

describe("README's front door", () => {
  const commands = frontDoorSections.flatMap((section) => commandsOf(readme, section))

  it("has both sections, with the commands a new user types", () => {
    for (const section of frontDoorSections) {
      expect(commands.filter((command) => command.section === section).length, `## ${section}`).toBeGreaterThan(1)
    }
    expect(commands.map((command) => command.text)).toEqual(expect.arrayContaining(["npm ci", "npm start", "npm test"]))
  })

  it("finds every command of a code block, without its comment and sudo", () => {
    const sample = "## Quick start\n\n```sh\nsudo systemctl stop scorebridge   # frees the port\nnpm ci && npm start\n```\n\n## Next\n```sh\nnot this\n```\n"
    expect(commandsOf(sample, "Quick start").map((command) => command.words)).toEqual([
      ["systemctl", "stop", "scorebridge"],
      ["npm", "ci"],
      ["npm", "start"]
    ])
  })

  it.each(commands.map((command) => [command.text, command] as const))("%s", (_, command) => check(command), 120_000)
})
