import { defineConfig } from "vitest/config"

/**
 * The fault suite alone (npm run test:faults sets FAULTS=long): every scenario runs the daemon
 * as a separate process. One file at a time in the long mode, so minutes-long scenarios do not
 * starve each other on two cores and the figures measure the daemon, not the contention.
 */
export default defineConfig({
  test: {
    include: ["test/faults/**/*.test.ts"],
    // Processes started through bin/scorebridge run a bundle built from the sources under test.
    globalSetup: ["test/support/bundle-setup.ts", "test/faults/support/summary-setup.ts"],
    pool: "forks",
    maxWorkers: process.env["FAULTS"] === "long" ? 1 : 2,
    testTimeout: 25 * 60_000,
    hookTimeout: 60_000
  }
})
