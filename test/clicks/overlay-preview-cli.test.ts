import { rmSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { SimulatorControl } from "../../simulator/control-client.ts"
import { startSimulator, type RunningSimulator } from "../../simulator/index.ts"
import { type Run, runScorebridge } from "../../scripts/support/scorebridge-process.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

const scratch = tempDir("overlay")

/** `scorebridge overlay-preview …` as a real process, the token in its environment as in production. */
const preview = (config: string, token: string, ...args: ReadonlyArray<string>): Promise<Run> =>
  runScorebridge("overlay-preview", ["--config", config, ...args], { SB_TEST_TOKEN: token }, 20_000)

const goodTemplate = `<!doctype html><html><head><meta renderWidth="600" renderHeight="100">
<style>body { background-color: #123; color: white; }</style></head>
<body>[name] [score]</body></html>`

const file = (name: string, text: string): string => {
  const path = join(scratch, name)
  writeFileSync(path, text)
  return path
}

let simulator: RunningSimulator
let control: SimulatorControl
/** Serves templates as the web server hosting them would: the path names the file. */
let templates: Server
let templateBase: string
const served = new Map<string, string>()

beforeAll(async () => {
  // Generous rate: each test makes at most one request, and they follow each other quickly.
  simulator = await startSimulator({ requestsPerSecond: 50, burst: 50 })
  control = new SimulatorControl(simulator.url)
  templates = createServer((req, res) => {
    const html = served.get(req.url ?? "")
    res.writeHead(html === undefined ? 404 : 200, { "content-type": "text/html" }).end(html ?? "not found")
  })
  await new Promise<void>((resolve) => templates.listen(0, "127.0.0.1", resolve))
  templateBase = `http://127.0.0.1:${(templates.address() as AddressInfo).port}`
})

afterAll(async () => {
  await simulator.close()
  await new Promise((resolve) => templates.close(resolve))
  rmSync(scratch, { recursive: true, force: true })
})

beforeEach(async () => {
  await control.clearRequests()
})

/** A config with court-1's overlays as given; `baseUrl` defaults to the simulator. */
const config = (name: string, teams: string, baseUrl = simulator.url): string =>
  file(name, `service:
  baseUrl: ${baseUrl}
  token:
    env: SB_TEST_TOKEN
places:
  - key: court-1
    teams:
${teams}
  - key: court-2
`)

const templateTeam = (team: string, source: string, templateFile?: string, values = '{ name: "{{team}}", score: "{{homeScore}}-{{awayScore}}" }') => `      ${team}:
        overlay:
          templateSource: ${source}
${templateFile === undefined ? "" : `          templateFile: ${templateFile}\n`}          values: ${values}
          position: { horizontal: left, vertical: bottom }
          heightPercentOfHeight: 12
          marginPercentOfHeight: 2`

const imageTeam = (team: string) => `      ${team}:
        overlay:
          imageSource: https://example.com/logo.png
          position: { horizontal: right, vertical: top }
          widthPercentOfWidth: 15`

const previewRequests = () => control.requests({ pathPrefix: "/public/overlay-preview" })

describe("scorebridge overlay-preview (process)", () => {
  it("checks the template file, sends the overlay with sample values filled in, and prints the video URL", async () => {
    const path = config("good.yaml", templateTeam("away", "https://example.com/bug.html", file("good.html", goodTemplate)))
    const run = await preview(path, "demo-token", "--place", "court-1", "--team", "away", "--home-team", "Lions", "--away-team", "Tigers", "--home-score", "3", "--away-score", "12")
    expect(run.stderr).not.toMatch(/not checked|Note/u)
    expect(run.code).toBe(0)
    const requests = await previewRequests()
    expect(requests).toHaveLength(1)
    expect(requests[0]?.body).toEqual({
      overlays: [{
        templateSource: "https://example.com/bug.html",
        values: { name: "Tigers", score: "3-12" },
        position: { horizontal: "left", vertical: "bottom" },
        heightPercentOfHeight: 12,
        marginPercentOfHeight: 2
      }]
    })
    const videoURL = (requests[0]?.response as { videoURL: string }).videoURL
    expect(run.stdout).toContain(`Preview video: ${videoURL}`)
    expect(run.stdout).toMatch(/available for 1 hour/u)
  })

  it("passes --source-url and uses the default sample values", async () => {
    const run = await preview(config("image.yaml", imageTeam("home")), "demo-token", "--place", "court-1", "--team", "home", "--source-url", "https://example.com/match.mp4")
    expect(run.code).toBe(0)
    const [request] = await previewRequests()
    expect(request?.body).toMatchObject({ sourceURL: "https://example.com/match.mp4", overlays: [{ imageSource: "https://example.com/logo.png" }] })
  })

  it("refuses a template with a missing placeholder value, listing it, without any request", async () => {
    const template = file("missing.html", goodTemplate.replace("[score]", "[score] [period]"))
    const run = await preview(config("missing.yaml", templateTeam("home", "https://example.com/bug.html", template)), "demo-token", "--place", "court-1", "--team", "home")
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/breaks the service's rules; nothing was sent:\n {2}- values\.period: missing for the template's placeholder \[period\]/u)
    expect(await control.requests()).toEqual([])
  })

  it("refuses a template file with a <script> entry", async () => {
    const template = file("script.html", goodTemplate.replace("</body>", "<SCRIPT>document.title = 1</SCRIPT></body>"))
    const run = await preview(config("script.yaml", templateTeam("home", "https://example.com/bug.html", template)), "demo-token", "--place", "court-1", "--team", "home")
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/remove the script entry/u)
    expect(await control.requests()).toEqual([])
  })

  it("without a template file, downloads the template to check it", async () => {
    served.set("/no-meta.html", goodTemplate.replace(/<meta[^>]*>/u, ""))
    const run = await preview(config("fetched.yaml", templateTeam("home", `${templateBase}/no-meta.html`)), "demo-token", "--place", "court-1", "--team", "home")
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/add <meta renderWidth/u)
    expect(await control.requests()).toEqual([])
  })

  it("says when the template could not be downloaded, and still asks for the preview", async () => {
    const run = await preview(config("unreachable.yaml", templateTeam("home", `${templateBase}/gone.html`)), "demo-token", "--place", "court-1", "--team", "home")
    expect(run.stderr).toMatch(/Template not checked: could not download http:\/\/127\.0\.0\.1:\d+\/gone\.html: HTTP 404/u)
    expect(run.code).toBe(0)
    expect(await previewRequests()).toHaveLength(1)
  })

  it("lists the presses and auto-highlights the overlay goes on, and those that go without one", async () => {
    const path = file("carriers.yaml", `service:
  baseUrl: ${simulator.url}
  token:
    env: SB_TEST_TOKEN
buttons:
  - { name: keypad, type: input-event, device: /dev/input/event3 }
places:
  - key: court-1
    sport: tennis
    scoreboard:
      protocol: lines
      serial: { path: /dev/ttyUSB0 }
      options: { delimiter: ",", fields: [home, away, period] }
    actions:
      - { source: keypad, button: 30, gesture: single, do: highlight, team: home }
      - { source: keypad, button: 31, gesture: single, do: highlight, team: away }
      - { source: keypad, gesture: double, do: highlight }
    autoHighlights:
      - { rule: break }
      - { rule: set-won, team: home }
      - { rule: match-point, team: away }
      - { rule: period-end }
    teams:
${imageTeam("home")}
`)
    const run = await preview(path, "demo-token", "--place", "court-1", "--team", "home")
    expect(run.code).toBe(0)
    expect(run.stdout).toContain([
      "At court-1 the home overlay goes on:",
      "  press keypad button 30 single",
      "  auto-highlight break, when it is about home",
      "  auto-highlight set-won (home only)",
      "Without an overlay at court-1:",
      "  press keypad (any button) double (team none)",
      "  auto-highlight period-end (about no team)",
      "Preview video: "
    ].join("\n"))
    expect(await previewRequests()).toHaveLength(1)
  })

  it("says when nothing is for the team yet", async () => {
    const run = await preview(config("nothing.yaml", imageTeam("home")), "demo-token", "--place", "court-1", "--team", "home")
    expect(run.code).toBe(0)
    expect(run.stdout).toContain("No press or auto-highlight at court-1 is for the home team yet.\nPreview video: ")
  })

  it("exits 2 naming the places when the place is not configured", async () => {
    const run = await preview(config("places.yaml", imageTeam("home")), "demo-token", "--place", "court-9", "--team", "home")
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/place "court-9" is not in the config; places: court-1, court-2/u)
  })

  it("exits 2 naming the teams with an overlay when the team has none", async () => {
    const path = config("teams.yaml", imageTeam("home"))
    const away = await preview(path, "demo-token", "--place", "court-1", "--team", "away")
    expect(away.code).toBe(2)
    expect(away.stderr).toMatch(/place "court-1" has no overlay for the away team \(add places\[0\]\.teams\.away\.overlay\); teams with an overlay: home/u)
    const bare = await preview(path, "demo-token", "--place", "court-2", "--team", "home")
    expect(bare.stderr).toMatch(/teams with an overlay: none/u)
    expect(await control.requests()).toEqual([])
  })

  it("exits 78 with the report on a config problem", async () => {
    const broken = config("broken.yaml", `${imageTeam("home")}\n          heightPercentOfHeight: 10`)
    const run = await preview(broken, "demo-token", "--place", "court-1", "--team", "home")
    expect(run.code).toBe(78)
    expect(run.stderr).toMatch(/broken\.yaml:\d+:\d+ .*not both/u)
  })

  it("exits 1 with the service's error, never showing the token", async () => {
    const token = "wrong-token-0123456789"
    const run = await preview(config("token.yaml", imageTeam("home")), token, "--place", "court-1", "--team", "home")
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/POST \/public\/overlay-preview: token missing, revoked/u)
    expect(`${run.stdout}${run.stderr}`).not.toContain(token)
  })
})
