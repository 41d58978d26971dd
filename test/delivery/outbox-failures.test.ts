import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { Effect, Layer, Option } from "effect"
import { DatabaseSync } from "node:sqlite"
import { Outbox } from "../../src/delivery/outbox.ts"
import { schemaVersion } from "../../src/delivery/outbox-schema.ts"
import { runWithOutbox, tempStateDirectory } from "./outbox-support.ts"
import { nodeBinary, runWriter, writerScript } from "./outbox-writer-process.ts"
import { numberedItem, scorePayload } from "../support/outbox-payloads.ts"

const openError = async (stateDirectory: string) => {
  const exit = await Effect.runPromiseExit(
    Effect.flip(Effect.scoped(Layer.build(Outbox.layer({ stateDirectory }))))
  )
  if (exit._tag === "Failure") throw new Error(`expected an OutboxOpenError, the outbox opened or died: ${exit.cause}`)
  return exit.value
}

const appendSome = (stateDirectory: string, count: number) =>
  runWithOutbox(stateDirectory, (outbox) =>
    Effect.forEach(Array.from({ length: count }, (_, n) => n), (n) =>
      outbox.append({ place: "court-1", kind: "score", payload: Object.assign(scorePayload(n), { text: "y".repeat(200) }), createdAt: n })))

describe("Outbox opening fails clearly", () => {
  it("when the state directory does not exist", async () => {
    const missing = path.join(tempStateDirectory(), "not-created")
    const error = await openError(missing)
    expect(error._tag).toBe("OutboxOpenError")
    expect(error.message).toBe(
      `cannot open outbox ${missing}/outbox.sqlite: state directory ${missing}: the state directory does not exist (ENOENT)`
    )
  })

  it("when the state directory sits under a regular file, so it cannot exist", async () => {
    const file = path.join(tempStateDirectory(), "a-file")
    fs.writeFileSync(file, "")
    const error = await openError(path.join(file, "state"))
    expect(error.message).toContain("part of the path is a file, not a directory (ENOTDIR)")
  })

  it("when the state directory is a file", async () => {
    const file = path.join(tempStateDirectory(), "a-file")
    fs.writeFileSync(file, "")
    expect((await openError(file)).message).toContain(`state directory ${file} is not a directory`)
  })

  it("when the file is not a database", async () => {
    const stateDirectory = tempStateDirectory()
    fs.writeFileSync(path.join(stateDirectory, "outbox.sqlite"), "scoreboard log\n".repeat(500))
    expect((await openError(stateDirectory)).message).toContain("not an outbox database (SQLITE_NOTADB)")
  })

  it("when pages inside the file are damaged", async () => {
    const stateDirectory = tempStateDirectory()
    await appendSome(stateDirectory, 300)
    const file = path.join(stateDirectory, "outbox.sqlite")
    const bytes = fs.readFileSync(file)
    // Keep the header page intact so SQLite recognises the file, then scramble what follows.
    for (let at = 4096; at < bytes.length; at += 7) bytes[at] = (bytes[at]! * 31 + 17) & 0xff
    fs.writeFileSync(file, bytes)
    expect((await openError(stateDirectory)).message).toMatch(/corrupt|not an outbox database/)
  })

  // Newer files that record their oldest reader: outbox-newer-schema.test.ts.
  it("when the file was written by a newer scorebridge and does not say which versions can read it", async () => {
    const stateDirectory = tempStateDirectory()
    await appendSome(stateDirectory, 1)
    const db = new DatabaseSync(path.join(stateDirectory, "outbox.sqlite"))
    db.exec("DROP TABLE file_format; PRAGMA user_version = 99")
    db.close()
    expect((await openError(stateDirectory)).message).toContain(
      `newer scorebridge (schema version 99) that this version (schema ${schemaVersion}) cannot read: install that newer scorebridge again`
    )
  })
})

// A private mount namespace gives real read-only and full file systems, which root cannot write
// around the way it ignores chmod. Where that is not allowed (no CAP_SYS_ADMIN) these are skipped.
const canMount = spawnSync("unshare", ["-m", "mount", "-t", "tmpfs", "tmpfs", "/mnt"]).status === 0

const inMountNamespace = (setup: string, writerArgs: ReadonlyArray<string>, afterwards = "") =>
  runWriter("unshare", ["-m", "sh", "-ec", `${setup}; "$0" "$@" || true; ${afterwards}`, nodeBinary, writerScript, ...writerArgs])

describe.runIf(canMount)("Outbox on a file system that refuses writes", () => {
  it("refuses to open on a read-only state directory, keeping the items in it", async () => {
    const stateDirectory = tempStateDirectory()
    const before = await appendSome(stateDirectory, 2)
    const run = await inMountNamespace(
      `mount --bind ${stateDirectory} ${stateDirectory}; mount -o remount,ro,bind ${stateDirectory}`,
      [stateDirectory, "0", "10"]
    )
    expect(run.acks).toEqual([])
    expect(run.error).toBe(
      `error OutboxOpenError cannot open outbox ${stateDirectory}/outbox.sqlite: state directory ${stateDirectory} is not writable: read-only file system (EROFS)`
    )
    const after = await runWithOutbox(stateDirectory, (outbox) => outbox.recent("court-1", 10))
    expect(after.map((item) => item.id)).toEqual(before.map((item) => item.id).reverse())
  })

  it("refuses to open when only the outbox file is read-only", async () => {
    const stateDirectory = tempStateDirectory()
    await appendSome(stateDirectory, 1)
    const file = path.join(stateDirectory, "outbox.sqlite")
    const run = await inMountNamespace(`mount --bind ${file} ${file}; mount -o remount,ro,bind ${file}`, [
      stateDirectory,
      "0",
      "10"
    ])
    expect(run.acks).toEqual([])
    expect(run.error).toContain("the file is not writable: read-only file system (EROFS)")
  })

  it("reports a full disk on append without crashing, and keeps what it acknowledged", async () => {
    const small = tempStateDirectory()
    const copy = tempStateDirectory()
    // tmpfs vanishes with the namespace: copy the files out after the writer has exited.
    const run = await inMountNamespace(
      `mount -t tmpfs -o size=512k tmpfs ${small}`,
      [small, "0", "100000", "1000"],
      `cp -a ${small}/. ${copy}/`
    )
    expect(run.error).toBe(`error OutboxWriteError cannot write ${small}/outbox.sqlite: disk full (SQLITE_FULL)`)
    expect(run.acks.length).toBeGreaterThan(0)
    expect(new Set(run.acks.map((ack) => ack.id)).size).toBe(run.acks.length)
    const stored = await runWithOutbox(copy, (outbox) =>
      Effect.forEach(run.acks, (ack) => Effect.map(outbox.get(ack.id), Option.map((item) => item.payload))))
    expect(stored).toEqual(run.acks.map((ack) => Option.some(numberedItem(ack.seq, "x".repeat(1000)).payload)))
  })
})
