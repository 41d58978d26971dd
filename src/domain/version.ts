/** The bridge's version, as package.json says (test/docs checks they agree). */
export const bridgeVersion = "0.1.0"
