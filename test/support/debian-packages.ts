/**
 * The venue's packages for the tests, built once (scripts/package/build-once.ts): before the suite
 * by `npm test`, else by the first test that asks.
 */
export { type Architecture, builtPackage, nextVersion, packageVersion } from "../../scripts/package/build-once.ts"

/** Enough time for a hook that may have to build packages (a test run on its own). */
export const packageBuildTimeoutMs = 15 * 60_000
