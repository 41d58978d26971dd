import { describe, expect, it } from "vitest"
import { clientOptions } from "../../src/transport/mqtt-client.ts"

describe("the daemon's mqtt.js client options", () => {
  it("turn off mqtt-packet's write cache: 65,536 two-byte Buffers kept for good, about 7 MB of the daemon's heap", () => {
    // mqtt.js's default (writeCache: true) makes mqtt-packet build the cache on the first packet it
    // writes; the bench's daemon heap after GC went from 26.6 to 19.5 MB without it (docs/performance.md).
    expect(clientOptions({ url: "mqtt://127.0.0.1:1883", clientId: "scorebridge" }, 1000).writeCache).toBe(false)
  })
})
