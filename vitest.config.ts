import { defineConfig } from "vitest/config"

/**
 * Tests that judge stamps against the wall clock (a console on a pty, a daemon process, a
 * tolerance of tens of ms): they run as a group of their own, after the rest, so the suite's
 * Chromium, Prometheus, dpkg and fault-loop tests never share the two cores with them. Together
 * they kept failing one run in two or three (a stamp 62–138 ms late beside a browser), never alone.
 */
const stampTests = ["test/scoreboard/**/*.test.ts", "test/highlights-e2e/**/*.test.ts", "test/clicks-e2e/**/*.test.ts", "test/swimming/**/*.test.ts"]

export default defineConfig({
  test: {
    // test/faults/** runs here in its short mode (FAULTS unset); npm run test:faults is the long one.
    exclude: ["node_modules/**"],
    // Two cores: keep parallelism modest so timing-sensitive tests stay honest.
    pool: "forks",
    maxWorkers: 2,
    // Test files share their worker process instead of each starting a fresh one: about 0.6 s of
    // start-up and imports saved per file, 408 s instead of 492 s for the whole run. Tests keep no
    // state in modules between files (each makes its own directories, ports and processes).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Processes started through bin/scorebridge run a bundle built from the sources under test
    // (built once per project, one after the other: about 2 s each).
    globalSetup: ["test/support/bundle-setup.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "suite",
          include: ["test/**/*.test.ts", "adapters/**/*.test.ts", "src/**/*.test.ts"],
          exclude: ["node_modules/**", ...stampTests]
        }
      },
      { extends: true, test: { name: "stamps", include: stampTests, sequence: { groupOrder: 1 } } }
    ]
  }
})
