import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "adapters/**/*.test.ts", "src/**/*.test.ts"],
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
    // Processes started through bin/scorebridge run a bundle built from the sources under test.
    globalSetup: ["test/support/bundle-setup.ts"]
  }
})
