import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { openOutboxDatabase } from "../../src/delivery/outbox-database.ts"
import { schemaVersion } from "../../src/delivery/outbox-schema.ts"
import { outboxOpensWith } from "../../src/upgrade/outbox-compatibility.ts"
import { rollBack } from "../../src/upgrade/reinstall.ts"
import { outboxFile, upgradeAdditively, upgradeBreakingly } from "../delivery/newer-outbox.ts"
import { resources } from "../support/resources.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { upgradedRoot, versionIn } from "./tiny-packages.ts"

/**
 * Before going back, the guard asks whether the kept version can open the outbox the failed one
 * leaves (src/upgrade/outbox-compatibility.ts): outbox files as this bridge and future ones leave
 * them (test/delivery/newer-outbox.ts), and the kept package's word on the schema it knows.
 */

const res = resources()
afterEach(() => res.release())

const outboxOfThisBridge = () => {
  const state = tempDir("compat-state", res)
  openOutboxDatabase(state).db.close()
  return state
}

/** The guard's way back after a restart loop, in the tiny packages' root, with this outbox. */
const goBack = (upgraded: { readonly root: string; readonly packageDirectory: string }, state: string, said: Array<string> = []) =>
  Effect.runPromise(rollBack({
    from: "0.1.0",
    to: "0.2.0",
    failure: { kind: "restart_loop", text: "a restart loop" },
    ...upgraded,
    outboxFile: outboxFile(state),
    say: (line) => Effect.sync(() => void said.push(line))
  }))

const tennisEntry = (i: number, at: number) => ({ timeStamp: at, left: 0, right: 0, period: 1, scoreValue: { gameScores: [[0, 0]], pointScore: [i, 0] } })

describe("can the kept version open the outbox", () => {
  it("this bridge's own file, or one a future version changed only by adding: yes", () => {
    const state = outboxOfThisBridge()
    expect(outboxOpensWith(outboxFile(state), schemaVersion).opens).toBe(true)
    upgradeAdditively(state, { pressedAt: Date.now(), entry: tennisEntry })
    expect(outboxOpensWith(outboxFile(state), schemaVersion)).toMatchObject({ opens: true })
  })

  it("a file a future version changed in a breaking way: not by this schema, yes by that version's", () => {
    const state = outboxOfThisBridge()
    upgradeBreakingly(state)
    const verdict = outboxOpensWith(outboxFile(state), schemaVersion)
    expect(verdict.opens).toBe(false)
    expect(verdict.why).toContain(`needs a bridge of schema ${schemaVersion + 2} or newer; the kept version knows schema ${schemaVersion}`)
    expect(outboxOpensWith(outboxFile(state), schemaVersion + 2).opens).toBe(true)
  })

  it("a kept package that does not say, or no outbox: nothing to stop the way back", () => {
    const state = outboxOfThisBridge()
    upgradeBreakingly(state)
    expect(outboxOpensWith(outboxFile(state), undefined).opens).toBe(true)
    expect(outboxOpensWith(outboxFile(tempDir("compat-none", res)), schemaVersion).opens).toBe(true)
  })

  it("the guard does not go back to a version that would refuse the outbox: the new one stays, and the record says why", async () => {
    const { root, packageDirectory } = upgradedRoot(res, { keptOutboxSchema: schemaVersion })
    const state = outboxOfThisBridge()
    upgradeBreakingly(state)
    const said: Array<string> = []
    const record = await goBack({ root, packageDirectory }, state, said)
    expect(versionIn(root)).toBe("0.2.0")
    expect(record).toMatchObject({ reinstalled: false, held: false })
    expect(record.error).toContain("not going back: the outbox")
    expect(said.join("\n")).toContain("CANNOT ROLL BACK")
  })

  it("and goes back when the kept version can open it", async () => {
    const { root, packageDirectory } = upgradedRoot(res, { keptOutboxSchema: schemaVersion })
    const state = outboxOfThisBridge()
    upgradeAdditively(state, { pressedAt: Date.now(), entry: tennisEntry })
    const record = await goBack({ root, packageDirectory }, state)
    expect(versionIn(root)).toBe("0.1.0")
    expect(record).toMatchObject({ reinstalled: true, held: true })
  })
})
