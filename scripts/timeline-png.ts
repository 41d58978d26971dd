// Draws docs/timeline.png, the picture of the match timeline in README and docs/operations.md: the tennis match the
// tests use (scripts/support/timeline-matches.ts), rendered by the real SVG renderer in Debian's Chromium.
// Run: node scripts/timeline-png.ts [output.png]
import { statSync } from "node:fs"
import { join } from "node:path"
import { chromium } from "playwright-core"
import { buildTimeline } from "../src/timeline/build-timeline.ts"
import { timelineSvg } from "../src/timeline/timeline-svg.ts"
import { tennisMatch } from "./support/timeline-matches.ts"

const output = process.argv[2] ?? join(import.meta.dirname, "..", "docs", "timeline.png")
const width = 720
// A fixed zone: the picture is the same wherever it is drawn.
const svg = timelineSvg(buildTimeline(tennisMatch().input), { width, timeZone: "UTC" })

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] })
try {
  // Twice the pixels, for a sharp picture on a high-density screen.
  const page = await browser.newPage({ viewport: { width, height: 600 }, deviceScaleFactor: 2 })
  await page.goto(`data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`)
  await page.locator("svg").screenshot({ path: output })
} finally {
  await browser.close()
}
const kB = Math.round(statSync(output).size / 1024)
console.log(`${output}: ${kB} kB`)
if (kB >= 150) process.exitCode = 1
