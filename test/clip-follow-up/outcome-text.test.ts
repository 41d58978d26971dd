import { describe, expect, it } from "vitest"
import { clipFeedbackMessage, clipMessages } from "../../src/clip-follow-up/clip-feedback.ts"
import { clipOutcomeText } from "../../src/clip-follow-up/outcome-text.ts"

const pressedAt = 1_700_000_000_000

describe("clip outcomes in words", () => {
  it.each([
    [{ outcome: null, detail: null, reads: 0 }, "waiting for its clip"],
    [{ outcome: null, detail: null, reads: 2 }, "waiting for its clip (2 reads so far)"],
    [{ outcome: "clip-ready", detail: { angles: 2, readyAt: pressedAt + 9_400 } }, "clip ready in 9 s, 2 angles"],
    [{ outcome: "clip-ready", detail: { angles: 1, readyAt: pressedAt + 12_000 } }, "clip ready in 12 s, 1 angle"],
    [{ outcome: "no-clip", detail: { reason: "no clip 180 s after the click was accepted", momentStatus: "failed" } }, `no clip (service says "failed"): no clip 180 s after the click was accepted`],
    [{ outcome: "deleted", detail: { reason: "undone: the moment was deleted by undo #7" } }, "deleted: undone: the moment was deleted by undo #7"],
    [{ outcome: "unchecked", detail: { reason: "503" } }, "unchecked: 503"]
  ] as const)("%j → %s", (click, text) => {
    expect(clipOutcomeText({ pressedAt, ...click })).toBe(text)
  })

  it("the feedback message names the place, the click, the outcome and the link", () => {
    expect(clipFeedbackMessage({
      place: "court-1", clickItemId: 12, momentKey: "mo-3", outcome: "clip-ready", pressedAt, acceptedAt: pressedAt + 300,
      detail: { angles: 2, videoURL: "http://media/cl.mp4", thumbnailURL: "http://media/cl.jpg", readyAt: pressedAt + 9_000 }
    })).toEqual({
      place: "court-1", clickItemId: 12, momentKey: "mo-3", pressedAt, status: "clip-ready",
      text: "court-1: highlight #12 → clip ready in 9 s, 2 angles",
      angles: 2, videoURL: "http://media/cl.mp4", thumbnailURL: "http://media/cl.jpg"
    })
    expect(clipFeedbackMessage({
      place: "court-1", clickItemId: 13, momentKey: "mo-4", outcome: "no-clip", pressedAt, acceptedAt: pressedAt,
      detail: { reason: "no clip 180 s after the click was accepted: is the camera recording?" }
    })).toMatchObject({ status: "no-clip", text: "court-1: highlight #13 → no clip: no clip 180 s after the click was accepted: is the camera recording?" })
  })
})

describe("what a place publishes on a clip outcome", () => {
  const settled = (outcome: "clip-ready" | "no-clip" | "deleted") => ({
    place: "court-1", clickItemId: 1, momentKey: "mo-1", outcome, pressedAt, acceptedAt: pressedAt, detail: {}
  })
  const clicks = {
    undoWithinSeconds: 120, mergeSeconds: 5,
    feedbackTopic: "scorebridge/court-1/feedback",
    clipSignal: { topic: "zigbee2mqtt/court-1-lamp/set", clipReady: { effect: "blink" }, noClip: { effect: "breathe" } }
  }

  it("the feedback message and the device's own payload for its outcome", () => {
    expect(clipMessages(clicks, settled("clip-ready")).map((m) => [m.topic, JSON.parse(m.payload).effect ?? JSON.parse(m.payload).status]))
      .toEqual([["scorebridge/court-1/feedback", "clip-ready"], ["zigbee2mqtt/court-1-lamp/set", "blink"]])
    expect(clipMessages(clicks, settled("no-clip")).map((m) => m.payload).at(-1)).toBe(`{"effect":"breathe"}`)
  })

  it("no signal for an outcome the device has no payload for; nothing without settings", () => {
    expect(clipMessages(clicks, settled("deleted")).map((m) => m.topic)).toEqual(["scorebridge/court-1/feedback"])
    expect(clipMessages({ undoWithinSeconds: 120, mergeSeconds: 5 }, settled("clip-ready"))).toEqual([])
    expect(clipMessages(undefined, settled("clip-ready"))).toEqual([])
  })
})
