import type { NetworkInterfaceInfo } from "node:os"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { allowedHosts, hostAllowed, originAllowed } from "../../src/setup/security/request-guard.ts"
import { addressWindowMs, makeLoginLimiter, wrongCodesPerAddress } from "../../src/setup/security/login-limiter.ts"
import { codeMatches, newSetupCode } from "../../src/setup/security/one-time-code.ts"
import { makeSessions, sessionIdleMs } from "../../src/setup/security/sessions.ts"
import { listenAddresses } from "../../src/setup/listen-addresses.ts"

/** The setup server's security parts on their own, their times on TestClock. */
describe("setup sessions", () => {
  it.effect("a cookie names its session until 15 minutes pass without a use; a wrong or ended one names none", () =>
    Effect.gen(function*() {
      const sessions = yield* makeSessions
      const first = yield* sessions.open("192.168.1.20")
      const second = yield* sessions.open("127.0.0.1")
      assert.strictEqual(first.label, "session 1 from 192.168.1.20")
      assert.strictEqual(second.label, "session 2 from 127.0.0.1")
      assert.match(first.cookie, /^[A-Za-z0-9_-]{43}$/u)
      assert.notStrictEqual(first.cookie, second.cookie)
      assert.isUndefined(yield* sessions.find([`${first.cookie}x`], true))
      assert.isUndefined(yield* sessions.find([], true))
      yield* TestClock.adjust(sessionIdleMs - 1)
      assert.strictEqual(yield* sessions.find([first.cookie], true), first.label)
      yield* TestClock.adjust(sessionIdleMs - 1)
      assert.strictEqual(yield* sessions.find([first.cookie], true), first.label)
      assert.isUndefined(yield* sessions.find([second.cookie], true))
      assert.strictEqual(yield* sessions.close([first.cookie]), first.label)
      assert.isUndefined(yield* sessions.find([first.cookie], true))
    }))
})

describe("the wrong-code limit", () => {
  it.effect("5 wrong codes in a minute make that address wait until the oldest is a minute old; a try meanwhile counts too", () =>
    Effect.gen(function*() {
      const limiter = yield* makeLoginLimiter
      for (let i = 0; i < wrongCodesPerAddress; i++) {
        assert.strictEqual(yield* limiter.admit("192.168.1.66"), 0)
        yield* limiter.recordWrong("192.168.1.66")
        yield* TestClock.adjust(1_000)
      }
      // The first wrong code was 5 s ago; this refused try replaces it as the oldest of the five.
      assert.strictEqual(yield* limiter.admit("192.168.1.66"), addressWindowMs - 4_000)
      assert.strictEqual(yield* limiter.admit("192.168.1.20"), 0)
      yield* TestClock.adjust(addressWindowMs - 5_000)
      assert.isAbove(yield* limiter.admit("192.168.1.66"), 0)
      yield* TestClock.adjust(addressWindowMs)
      assert.strictEqual(yield* limiter.admit("192.168.1.66"), 0)
    }))
})

describe("one-time codes", () => {
  it("are 8 symbols of an alphabet without look-alikes, compared without regard to case and dash", () => {
    const seen = new Set<string>()
    for (let i = 0; i < 200; i++) {
      const code = newSetupCode()
      assert.match(code, /^[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}$/u)
      seen.add(code)
    }
    assert.strictEqual(seen.size, 200)
    assert.isTrue(codeMatches("abcd efgh", "ABCD-EFGH"))
    assert.isFalse(codeMatches("ABCD-EFG", "ABCD-EFGH"))
    assert.isFalse(codeMatches("", "ABCD-EFGH"))
  })
})

describe("which requests the server answers", () => {
  const hosts = allowedHosts(["127.0.0.1", "::1", "192.168.1.20", "fd00::2"], 8380, "Venue-PC")

  it("a Host of an address it listens on, localhost or the machine's name, each with the port", () => {
    for (const host of ["127.0.0.1:8380", "[::1]:8380", "192.168.1.20:8380", "[fd00::2]:8380", "localhost:8380", "venue-pc:8380", "VENUE-PC.local:8380"]) {
      assert.isTrue(hostAllowed(host, hosts), host)
    }
    for (const host of [undefined, "", "192.168.1.20", "192.168.1.21:8380", "192.168.1.20:8381", "attacker.example:8380", "venue-pc.attacker.example:8380", "::1:8380", "0.0.0.0:8380"]) {
      assert.isFalse(hostAllowed(host, hosts), String(host))
    }
    assert.isTrue(hostAllowed("127.0.0.1", allowedHosts(["127.0.0.1"], 80, "venue-pc")))
  })

  it("an Origin that is exactly this server as reached, on anything but GET and HEAD", () => {
    assert.isTrue(originAllowed("GET", undefined, "127.0.0.1:8380"))
    assert.isTrue(originAllowed("HEAD", "http://attacker.example", "127.0.0.1:8380"))
    assert.isTrue(originAllowed("POST", "http://192.168.1.20:8380", "192.168.1.20:8380"))
    for (const origin of [undefined, "null", "http://attacker.example", "http://127.0.0.1:8380", "https://192.168.1.20:8380", "http://192.168.1.20:8380/"]) {
      assert.isFalse(originAllowed("POST", origin, "192.168.1.20:8380"), String(origin))
    }
    assert.isFalse(originAllowed("DELETE", "http://attacker.example", "127.0.0.1:8380"))
  })

  it("listens on loopback, and with --lan on the machine's other addresses but not link-local ones", () => {
    const info = (address: string, internal = false): NetworkInterfaceInfo =>
      address.includes(":")
        ? { address, internal, netmask: "", family: "IPv6", mac: "", cidr: null, scopeid: 0 }
        : { address, internal, netmask: "", family: "IPv4", mac: "", cidr: null }
    const interfaces = {
      lo: [info("127.0.0.1", true), info("::1", true)],
      eth0: [info("192.168.1.20"), info("fe80::fc:ff:fe00:1"), info("fd00::2")],
      wlan0: [info("10.0.0.5")]
    }
    assert.deepStrictEqual(listenAddresses(false, interfaces), ["127.0.0.1", "::1"])
    assert.deepStrictEqual(listenAddresses(true, interfaces), ["127.0.0.1", "::1", "192.168.1.20", "fd00::2", "10.0.0.5"])
    assert.deepStrictEqual(listenAddresses(false, { lo: [info("127.0.0.1", true)] }), ["127.0.0.1"])
  })
})
