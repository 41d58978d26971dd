import { describe, expect, it } from "vitest"
import { Result, Schema } from "effect"
import { itemKinds, itemStates } from "../../src/domain/item-kinds.ts"
import { decodeItem, decodeLaneCounts, type ItemColumns, ItemRow, payloadJson } from "../../src/delivery/outbox-item.ts"

/** A row as node:sqlite returns it: a null-prototype object, `received_as` included. */
const sqliteRow = (columns: Record<string, unknown>): unknown => Object.assign(Object.create(null), columns)

const payloads = {
  score: { timeStamp: 1_700_000_000_000, left: 3, right: 1, period: 2 },
  click: { timeStamp: 1_700_000_000_500, metadata: { clickId: "c-1", team: "home", source: "remote", button: "1", gesture: "single" } },
  undo: { clickItemId: 41 }
} as const

const goodRow = (overrides: Partial<Record<keyof ItemColumns | "received_as", unknown>> = {}) => ({
  id: 42,
  place: "court-1",
  kind: "score",
  payload: JSON.stringify(payloads.score),
  event_key: "ev-1",
  dedupe_key: null,
  created_at: 1_700_000_000_000,
  attempts: 2,
  not_before: 1_700_000_001_000,
  state: "pending",
  last_error: "503 Service Unavailable",
  result: null,
  settled_at: null,
  sent_at: 1_700_000_000_900,
  sent_to: "ev-1",
  received_as: "mqtt:7:scores/court-1:abc",
  ...overrides
})

const problemOf = (row: unknown) => {
  const decoded = decodeItem(row)
  if (Result.isSuccess(decoded)) throw new Error(`expected a malformed item, decoded ${JSON.stringify(decoded.success)}`)
  return decoded.failure
}

describe("outbox rows decode into items", () => {
  it.each(itemKinds)("a %s row decodes with its payload parsed, and encodes back to the same columns", (kind) => {
    const row = goodRow({ kind, payload: JSON.stringify(payloads[kind]), dedupe_key: `${kind}-1` })
    const item = Result.getOrThrow(decodeItem(sqliteRow(row)))
    expect(item).toEqual({
      id: 42,
      place: "court-1",
      kind,
      payload: payloads[kind],
      eventKey: "ev-1",
      dedupeKey: `${kind}-1`,
      createdAt: 1_700_000_000_000,
      attempts: 2,
      notBefore: 1_700_000_001_000,
      state: "pending",
      lastError: "503 Service Unavailable",
      result: null,
      settledAt: null,
      sentAt: 1_700_000_000_900,
      sentTo: "ev-1"
    })
    const { received_as: _, ...columns } = row
    expect(Schema.encodeSync(ItemRow)(Schema.decodeUnknownSync(ItemRow)(sqliteRow(row)))).toEqual(columns)
  })

  it.each(itemStates)("a %s row keeps its state, its result and when it was settled", (state) => {
    const result = { eventKey: "ev-1", key: "k-9", nested: [1, null, { ok: true }] }
    const item = Result.getOrThrow(decodeItem(sqliteRow(goodRow({ state, result: JSON.stringify(result), settled_at: 1_700_000_002_000 }))))
    expect(item.state).toBe(state)
    expect(item.result).toEqual(result)
    expect(item.settledAt).toBe(1_700_000_002_000)
  })

  it("a result that is JSON but not an object is kept as it is", () => {
    expect(Result.getOrThrow(decodeItem(goodRow({ result: "\"merged\"" }))).result).toBe("merged")
  })
})

describe("a malformed row is named by its id and its problem", () => {
  it.each([
    ["a payload that is not JSON", { payload: "{\"timeStamp\": 1" }, "item #42 is malformed (payload: Expected a valid JSON string)"],
    ["a payload that is a JSON array", { payload: "[1,2]" }, "item #42 is malformed (payload: Expected object)"],
    ["a payload that is JSON null", { payload: "null" }, "item #42 is malformed (payload: Expected object)"],
    ["a payload that is a number", { payload: "7" }, "item #42 is malformed (payload: Expected object)"],
    ["a score entry with a count that is not a number", { payload: "{\"timeStamp\": 1, \"left\": \"3\", \"right\": 0, \"period\": 1}" }, "item #42 is malformed (payload.left: Expected number; payload.scoreValue: Missing key)"],
    ["a click without its metadata", { kind: "click", payload: "{\"timeStamp\": 1}" }, "item #42 is malformed (payload.metadata: Missing key)"],
    [
      "a click of a team this bridge does not know",
      { kind: "click", payload: JSON.stringify({ ...payloads.click, metadata: { ...payloads.click.metadata, team: "red" } }) },
      "item #42 is malformed (payload.metadata.team: Expected \"home\" | \"away\" | \"none\")"
    ],
    // The first undos of the prototype named the moment; no bridge since wrote one.
    ["an undo that names no click", { kind: "undo", payload: "{\"momentKey\": \"m-9\"}" }, "item #42 is malformed (payload.clickItemId: Missing key)"],
    ["a result that is not JSON", { result: "delivered" }, "item #42 is malformed (result: Expected a valid JSON string)"],
    ["a kind this bridge does not know", { kind: "highlight" }, "item #42 is malformed (kind: Expected \"click\" | \"score\" | \"undo\")"],
    ["a state this bridge does not know", { state: "sending" }, "item #42 is malformed (state: Expected \"pending\" | \"delivered\" | \"warning\" | \"dead\" | \"missed\")"],
    ["a time that is not whole milliseconds", { created_at: 1.5 }, "item #42 is malformed (created_at: Expected an integer)"],
    ["a place that is missing", { place: null }, "item #42 is malformed (place: Expected string)"]
  ])("%s", (_, overrides, message) => {
    const malformed = problemOf(sqliteRow(goodRow(overrides)))
    expect(malformed._tag).toBe("MalformedItem")
    expect(malformed.id).toBe(42)
    expect(malformed.message).toBe(message)
  })

  it("lists every problem of the row, never its payload", () => {
    const malformed = problemOf(goodRow({ payload: "secret-ish text", kind: "clicks", attempts: "two" }))
    expect(malformed.problem).toContain("kind: ")
    expect(malformed.problem).toContain("payload: Expected a valid JSON string")
    expect(malformed.problem).toContain("attempts: ")
    expect(malformed.message).not.toContain("secret-ish")
  })

  it("a row without a readable id is item #?", () => {
    const malformed = problemOf({ ...goodRow(), id: "forty-two" })
    expect(malformed.id).toBeNull()
    expect(malformed.message).toBe("item #? is malformed (id: Expected number)")
  })

  it("what is not a row at all", () => {
    expect(problemOf(undefined).message).toBe("item #? is malformed (Expected object)")
  })
})

describe("payloads checked before they are stored", () => {
  const input = { place: "court-1", createdAt: 1 }
  it("a payload of its kind is stored as its JSON, fields the Schema does not name included", () => {
    expect(payloadJson({ ...input, kind: "click", payload: payloads.click })).toEqual(Result.succeed(JSON.stringify(payloads.click)))
    const newer = Object.assign({ ...payloads.score }, { seq: 1, filler: "x" })
    expect(payloadJson({ ...input, kind: "score", payload: newer })).toEqual(Result.succeed(JSON.stringify(newer)))
  })

  it("a payload that is not its kind's is refused with the reason", () => {
    // As another kind's payload, or a value JSON would turn into null: the compiler sees neither here.
    const wrong: unknown = payloads.undo
    expect(payloadJson({ ...input, kind: "click", payload: wrong as typeof payloads.click })).toEqual(Result.fail("timeStamp: Missing key; metadata: Missing key"))
    expect(payloadJson({ ...input, kind: "score", payload: { ...payloads.score, left: Number.NaN } })).toEqual(Result.fail("left: Expected a finite number; scoreValue: Missing key"))
  })
})

describe("a payload's fields this bridge does not know", () => {
  it("are kept when its row is read, at any depth: they go to the service as they are", () => {
    const newer = { ...payloads.click, players: [{ id: "p-7" }], replay: { slow: true }, metadata: { ...payloads.click.metadata, angle: "north" } }
    const item = Result.getOrThrow(decodeItem(sqliteRow(goodRow({ kind: "click", payload: JSON.stringify(newer) }))))
    expect(item.payload).toEqual(newer)
  })
})

describe("lane counts", () => {
  it("decode as they are, and fail on a kind or state the bridge does not know", () => {
    const rows = [{ place: "court-1", kind: "click", state: "pending", count: 3 }]
    expect(Result.getOrThrow(decodeLaneCounts(rows.map(sqliteRow)))).toEqual(rows)
    expect(Result.isFailure(decodeLaneCounts([{ ...rows[0], state: "lost" }]))).toBe(true)
  })
})
