import { describe, expect, it } from "vitest"
import { clickBody } from "../../src/clicks/click-body.ts"
import { lateFallbackWindow, lateWindow } from "../../src/clicks/late-press.ts"
import { footageLasts } from "../../src/delivery/footage.ts"

const arrivedAt = 1_700_000_100_000
const window = { beforeSeconds: 10, afterSeconds: 5 }

describe("the window of a press that waited at the broker", () => {
  it("reaches back over the time it may have been made in: from `before` ahead of the last sign of life to `after` past its arrival", () => {
    expect(lateWindow({ after: arrivedAt - 20_000, arrivedAt }, window)).toEqual({ startTime: arrivedAt - 30_000, endTime: arrivedAt + 5_000 })
  })

  it("never further back than the minute of footage an open event keeps at its arrival", () => {
    expect(lateWindow({ after: arrivedAt - 10 * 60_000, arrivedAt }, window).startTime).toBe(arrivedAt - 60_000)
    // When the bridge stopped listening is not known: as far back as footage exists.
    expect(lateWindow({ after: null, arrivedAt }, window).startTime).toBe(arrivedAt - 60_000)
  })

  it("never narrower than an on-time press's window", () => {
    expect(lateWindow({ after: arrivedAt - 1_000, arrivedAt }, { beforeSeconds: 60, afterSeconds: 5 }).startTime).toBe(arrivedAt - 60_000)
    expect(lateWindow({ after: arrivedAt, arrivedAt }, window)).toEqual({ startTime: arrivedAt - 10_000, endTime: arrivedAt + 5_000 })
  })

  it("uses a stated window when the place leaves it to the sport's default: a widened one has to be given explicitly", () => {
    expect(lateWindow({ after: arrivedAt - 5_000, arrivedAt })).toEqual({
      startTime: arrivedAt - 5_000 - lateFallbackWindow.beforeSeconds * 1000,
      endTime: arrivedAt + lateFallbackWindow.afterSeconds * 1000
    })
  })
})

describe("a late press's click", () => {
  const press = { source: "remote", button: "1", gesture: "single" as const, pressedAt: arrivedAt }
  const late = { after: arrivedAt - 20_000, arrivedAt }
  const body = clickBody({ press, clickId: "c-1", team: "home", window, score: undefined, overlay: undefined, late })

  it("keeps its arrival as the click time, carries the widened window and says since when in its metadata", () => {
    expect(body).toMatchObject({ timeStamp: arrivedAt, startTime: arrivedAt - 30_000, endTime: arrivedAt + 5_000 })
    expect(body.metadata).toEqual({ clickId: "c-1", team: "home", source: "remote", button: "1", gesture: "single", pressedAfter: arrivedAt - 20_000 })
    expect(Buffer.byteLength(JSON.stringify(body.metadata))).toBeLessThan(500)
  })

  it("is judged missed at its arrival, not at the far end of its widened window", () => {
    expect(footageLasts(body, arrivedAt + 45_000)).toBe(true)
    expect(footageLasts(body, arrivedAt + 61_000)).toBe(false)
    const onTime = clickBody({ press, clickId: "c-2", team: "home", window, score: undefined, overlay: undefined })
    expect(footageLasts(onTime, arrivedAt + 51_000)).toBe(false)
  })
})
