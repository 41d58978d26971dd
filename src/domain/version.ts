// A package built for another version (scripts/package.ts --version, e.g. the second version an
// upgrade test installs) bundles that version in place of the identifier below (esbuild's define);
// run from the sources, the identifier does not exist and package.json's version stands.
declare const SCOREBRIDGE_BUILD_VERSION: string | undefined

/** The bridge's version, as package.json says (test/status/bridge-version.test.ts checks they agree). */
export const bridgeVersion: string = typeof SCOREBRIDGE_BUILD_VERSION === "string" ? SCOREBRIDGE_BUILD_VERSION : "0.1.0"
