import { describe, expect, it } from "vitest"
import { topicMatches } from "./topic-filter.ts"

describe("topicMatches", () => {
  it.each([
    ["court/1/button", "court/1/button", true],
    ["court/1/button", "court/2/button", false],
    ["court/+/button", "court/2/button", true],
    ["court/+/button", "court/2/button/extra", false],
    ["court/+", "court", false],
    ["court/#", "court", true],
    ["court/#", "court/1/button", true],
    ["#", "court/1", true],
    ["+/+", "/x", true],
    ["court/1", "court/1/", false],
    ["#", "$SYS/broker/uptime", false],
    ["+/broker/uptime", "$SYS/broker/uptime", false],
    ["$SYS/#", "$SYS/broker/uptime", true]
  ])("%s against %s → %s", (filter, topic, expected) => {
    expect(topicMatches(filter, topic)).toBe(expected)
  })
})
