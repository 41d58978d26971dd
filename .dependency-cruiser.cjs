/** Import circles in the product or its simulator (type-only imports included) fail `npm test` (test/architecture/import-circles.test.ts). */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A module that imports itself through others: one of them holds something in the wrong file.",
      from: {},
      to: { circular: true }
    }
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    parser: "swc",
    tsConfig: { fileName: "tsconfig.json" },
    moduleSystems: ["es6"]
  }
}
