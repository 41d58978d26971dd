import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "adapters/**/*.test.ts", "src/**/*.test.ts"],
    exclude: ["test/faults/**", "node_modules/**"],
    // Two cores: keep parallelism modest so timing-sensitive tests stay honest.
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000
  }
})
