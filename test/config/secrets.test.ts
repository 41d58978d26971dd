import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { resolveSecret } from "../../src/config/secrets.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

const secret = "tok-3f9a8b7c6d5e"
const dir = tempDir("secrets")
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const write = (name: string, content: string) => {
  const file = join(dir, name)
  writeFileSync(file, content, { mode: 0o600 })
  return file
}

const failure = (ref: Parameters<typeof resolveSecret>[0]) =>
  Effect.flip(resolveSecret(ref, "service.token")).pipe(Effect.tap((error) =>
    Effect.sync(() => {
      assert.strictEqual(error._tag, "SecretError")
      assert.strictEqual(error.what, "service.token")
      assert.notInclude(error.message, secret)
      assert.notInclude(JSON.stringify(error), secret)
    })
  ))

describe("resolveSecret", () => {
  it.effect("reads an environment variable, trimmed, as a redacted value", () =>
    Effect.gen(function*() {
      process.env["SB_TEST_TOKEN"] = ` ${secret}\n`
      const value = yield* resolveSecret({ env: "SB_TEST_TOKEN" }, "service.token")
      assert.strictEqual(Redacted.value(value), secret)
      assert.notInclude(String(value), secret)
      assert.notInclude(JSON.stringify({ value }), secret)
    }))

  it.effect("names a variable that is not set", () =>
    Effect.gen(function*() {
      delete process.env["SB_TEST_UNSET"]
      const error = yield* failure({ env: "SB_TEST_UNSET" })
      assert.include(error.message, "service.token: environment variable SB_TEST_UNSET is not set")
    }))

  it.effect("rejects an empty variable", () =>
    Effect.gen(function*() {
      process.env["SB_TEST_EMPTY"] = "  \n"
      const error = yield* failure({ env: "SB_TEST_EMPTY" })
      assert.include(error.reason, "environment variable SB_TEST_EMPTY is empty")
    }))

  it.effect("rejects a value with inner whitespace without printing it", () =>
    Effect.gen(function*() {
      process.env["SB_TEST_TWO_WORDS"] = `${secret} ${secret}`
      const error = yield* failure({ env: "SB_TEST_TWO_WORDS" })
      assert.include(error.reason, "contains spaces")
    }))

  it.effect("reads a file, trimmed", () =>
    Effect.gen(function*() {
      const value = yield* resolveSecret({ file: write("token", `${secret}\n`) }, "service.token")
      assert.strictEqual(Redacted.value(value), secret)
    }))

  it.effect("names a missing file", () =>
    Effect.gen(function*() {
      const file = join(dir, "absent")
      const error = yield* failure({ file })
      assert.strictEqual(error.reason, `file ${file} does not exist`)
    }))

  it.effect("rejects an empty file", () =>
    Effect.gen(function*() {
      const file = write("empty", "\n")
      const error = yield* failure({ file })
      assert.strictEqual(error.reason, `file ${file} is empty; put the secret there`)
    }))

  it.effect("says when the file is a directory", () =>
    Effect.gen(function*() {
      const error = yield* failure({ file: dir })
      assert.include(error.reason, "is a directory")
    }))

  it.effect("reads a systemd credential from $CREDENTIALS_DIRECTORY", () =>
    Effect.gen(function*() {
      const credentials = join(dir, "credentials")
      mkdirSync(credentials)
      writeFileSync(join(credentials, "token"), secret)
      process.env["CREDENTIALS_DIRECTORY"] = credentials
      const value = yield* resolveSecret({ credential: "token" }, "service.token")
      assert.strictEqual(Redacted.value(value), secret)
      const error = yield* failure({ credential: "other" })
      assert.include(error.reason, `file ${join(credentials, "other")} does not exist; add LoadCredential=other:/path/to/secret`)
    }))

  it.effect("explains a credential outside systemd", () =>
    Effect.gen(function*() {
      delete process.env["CREDENTIALS_DIRECTORY"]
      const error = yield* failure({ credential: "token" })
      assert.include(error.reason, "needs $CREDENTIALS_DIRECTORY")
      assert.include(error.reason, "LoadCredential=token:")
    }))
})
