/**
 * Import circles fail `npm test` (test/architecture/import-circles.test.ts), type-only imports included:
 * - between modules of the product or its simulator;
 * - between folders of the product: each part (src/<part>, adapters/<console>) imports only parts below
 *   it, so a part can be read, tested and changed without the ones that use it. Tests are left out of the
 *   folder view: a test may reach across parts, and nothing imports a test.
 */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A module that imports itself through others: one of them holds something in the wrong file.",
      from: {},
      to: { circular: true }
    },
    {
      name: "no-folder-circles",
      scope: "folder",
      severity: "error",
      comment: "Two parts that reach each other: what both need belongs in a part below them (often src/domain).",
      from: { pathNot: "^(test|bench|scripts)(/|$)" },
      to: { circular: true }
    },
    {
      name: "browser-page-takes-types",
      severity: "error",
      comment: "The pages' scripts run in the browser (bundled into /setup.js and /status.js): they take the routes' shapes as types only, "
        + "and values only from its own folder or from a module that needs neither Node nor Effect (src/timeline/time-ticks.ts).",
      from: { path: "^src/(setup/page|status)/browser/" },
      to: { pathNot: ["^src/(setup/page|status)/browser/", "^src/timeline/time-ticks\\.ts$"], dependencyTypesNot: ["type-only"] }
    }
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "\\.test\\.ts$" },
    tsPreCompilationDeps: true,
    parser: "swc",
    tsConfig: { fileName: "tsconfig.json" },
    moduleSystems: ["es6"]
  }
}
