// Builds the packages the test suite installs (scripts/package/build-once.ts) before it starts,
// unless up-to-date ones are there: `npm test` runs it, so that xz's minutes of CPU never run beside
// the suite's timing-sensitive tests on a 2-core machine.
import { statSync } from "node:fs"
import { relative } from "node:path"
import { testPackages } from "./package/build-once.ts"

const started = Date.now()
const built = await testPackages()
const seconds = ((Date.now() - started) / 1000).toFixed(0)
console.log(`test packages ready in ${seconds} s: ${built.map((deb) => `${relative(process.cwd(), deb)} (${(statSync(deb).size / 1e6).toFixed(1)} MB)`).join(", ")}`)
