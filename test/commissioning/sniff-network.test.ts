import type { Socket } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { message11 } from "../../adapters/bodet-scorepad/encode.ts"
import { clockPacket, statePacket } from "../../adapters/fairplay-mp70/encode.ts"
import { protocols } from "../../adapters/registry.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { connectConsole, keepSending, sendDatagrams, startConsoleServer, stramatelFrames } from "./network-console.ts"
import { runCli, type Started, startCli } from "./support.ts"

let running: Started | undefined
let cleanups: Array<() => void | Promise<void>> = []
afterEach(async () => {
  running?.process.kill("SIGKILL")
  await running?.exited
  running = undefined
  for (const cleanup of cleanups) await cleanup()
  cleanups = []
})

/** Starts sniff on a fresh 127.0.0.1 port and waits until it says it is waiting there. */
const startSniff = async (flag: "--tcp-listen" | "--udp-listen", ...args: ReadonlyArray<string>) => {
  const port = await freePort()
  running = startCli("sniff", [flag, `127.0.0.1:${port}`, "--seconds", "1", ...args])
  const started = running
  await eventually("sniff to wait for the console", () => (started.stdout().includes(`127.0.0.1:${port}…`) ? true : undefined), { timeoutMs: 10_000 })
  return { port, started }
}

/** A console that connects to sniff and keeps sending `bytes`. */
const consoleSending = async (port: number, bytes: Uint8Array): Promise<Socket> => {
  const socket = await connectConsole(port)
  socket.on("error", () => undefined)
  const sender = keepSending(socket, bytes)
  cleanups.push(() => {
    sender.stop()
    socket.destroy()
  })
  return socket
}

const finished = async (started: Started) => {
  const exit = await started.exited
  running = undefined
  return { code: exit.code, stdout: started.stdout(), stderr: started.stderr() }
}

describe("scorebridge sniff over the network (process)", () => {
  it("recognises Stramatel frames from a console connecting over TCP, listening from its connection, and prints the tcp listen config", async () => {
    const { port, started } = await startSniff("--tcp-listen")
    expect(started.stdout()).toContain(`Waiting for a console to connect to 127.0.0.1:${port}…`)
    const socket = await consoleSending(port, stramatelFrames(40))
    const consolePort = socket.localPort
    const connectedAt = Date.now()
    const run = await finished(started)
    expect(run.code).toBe(0)
    // The --seconds window counts from the connection.
    expect(Date.now() - connectedAt).toBeGreaterThanOrEqual(950)
    expect(run.stdout).toContain(`Listening to console 127.0.0.1:${consolePort} for 1 s…`)
    expect(run.stdout).toMatch(new RegExp(`Recognised stramatel-452m from console 127\\.0\\.0\\.1:${consolePort}: \\d+ frames decoded, 0 bad\\.`, "u"))
    expect(run.stdout).toMatch(/^ {2}sport: volleyball$/mu)
    expect(run.stdout).toContain([
      "    sport: volleyball",
      "    scoreboard:",
      "      protocol: stramatel-452m",
      "      tcp:",
      `        listen: 127.0.0.1:${port}`
    ].join("\n"))
    expect(run.stdout).not.toMatch(/serial:|baudRate|Listening on .* baud/u)
  })

  it("recognises a Bodet Scorepad stream over TCP", async () => {
    expect(protocols["bodet-scorepad"], "bodet-scorepad in adapters/registry.ts").toBeDefined()
    const { port, started } = await startSniff("--tcp-listen")
    const messages = Array.from({ length: 20 }, (_, i) => message11({ clock: `12:${String(40 - i).padStart(2, "0")}`, home: 3, away: 2, period: 2 }))
    await consoleSending(port, new Uint8Array(Buffer.concat(messages)))
    const run = await finished(started)
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/Recognised bodet-scorepad from console 127\.0\.0\.1:\d+: \d+ frames decoded, 0 bad\./u)
    const sample = run.stdout.split("\n").find((line) => /^ {4}\w+: \{/u.test(line))
    expect(JSON.parse(sample!.slice(sample!.indexOf("{")))).toMatchObject({ home: 3, away: 2, period: 2 })
    expect(run.stdout).toContain(["    scoreboard:", "      protocol: bodet-scorepad", "      tcp:", `        listen: 127.0.0.1:${port}`].join("\n"))
  })

  it("recognises a Fair-Play MP-70 over TCP (a converter's client mode connecting to the bridge)", async () => {
    const { port, started } = await startSniff("--tcp-listen")
    const packets = Array.from({ length: 20 }, (_, i) => [clockPacket({ clock: `12:${String(40 - i).padStart(2, "0")}`, period: 2 }), statePacket({ home: 4, away: 1 })]).flat()
    await consoleSending(port, new Uint8Array(Buffer.concat(packets)))
    const run = await finished(started)
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/Recognised fairplay-mp70 from console 127\.0\.0\.1:\d+: \d+ frames decoded, 0 bad\./u)
    expect(run.stdout).toMatch(/^ {2}variant: rink /mu)
    expect(run.stdout.trimEnd().endsWith(["    scoreboard:", "      protocol: fairplay-mp70", "      tcp:", `        listen: 127.0.0.1:${port}`].join("\n"))).toBe(true)
  })

  it("exits 1 with what to check when no console connects within --wait-seconds", async () => {
    const { port, started } = await startSniff("--tcp-listen", "--wait-seconds", "1")
    const run = await finished(started)
    expect(run.code).toBe(1)
    expect(run.stdout).toContain(`No console connected to 127.0.0.1:${port} within 1 s.`)
    expect(run.stdout).toMatch(/console's network output: it must send to this machine's IP address .* and port \d+/u)
    expect(run.stdout).toContain(`firewall lets it in (sudo ufw allow ${port}/tcp)`)
    expect(run.stdout).not.toMatch(/Listening to|Recognised/u)
  })

  it("suggests json for one JSON document per UDP datagram, saying the udp link sets framing: message", async () => {
    const { port, started } = await startSniff("--udp-listen")
    const documents = Array.from({ length: 8 }, (_, i) => new TextEncoder().encode(JSON.stringify({ home: 3 + i, away: 1 })))
    const sender = await sendDatagrams(port, documents, 80)
    const run = await finished(started)
    expect(run.code).toBe(0)
    expect(run.stdout).toContain(`Looks like JSON documents, one per datagram, from console 127.0.0.1:${sender} (UDP to 127.0.0.1:${port}) (8 documents), e.g.:\n  {"home":10,"away":1}\n`)
    expect(run.stdout).toMatch(/framing: message, which the bridge sets by itself on a udp: link/u)
    expect(run.stdout).toContain(["      protocol: json", "      udp:", `        listen: 127.0.0.1:${port}`, "      options: {}"].join("\n"))
  })

  it("connects to a converter with --tcp-connect: recognised, or silent with what to check", async () => {
    const converter = await startConsoleServer(stramatelFrames(40))
    cleanups.push(converter.close)
    const run = await runCli("sniff", ["--tcp-connect", `127.0.0.1:${converter.port}`, "--seconds", "1"])
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(new RegExp(`Recognised stramatel-452m from 127\\.0\\.0\\.1:${converter.port} \\(TCP\\): \\d+ frames`, "u"))
    expect(run.stdout).toContain(["      protocol: stramatel-452m", "      tcp:", `        connect: 127.0.0.1:${converter.port}`].join("\n"))

    const silent = await startConsoleServer(undefined)
    cleanups.push(silent.close)
    const quiet = await runCli("sniff", ["--tcp-connect", `127.0.0.1:${silent.port}`, "--seconds", "1"])
    expect(quiet.code).toBe(1)
    expect(quiet.stdout).toMatch(/nothing received/u)
    expect(quiet.stdout).toMatch(/accepted the connection but sent nothing in 1 s: the console side is silent or its line settings are wrong/u)
    expect(quiet.stdout).toMatch(/converter's serial settings \(speed, 8N1/u)
  })

  it("exits 2 for a refused connect and for --bauds on a network link", async () => {
    const refused = await runCli("sniff", ["--tcp-connect", `127.0.0.1:${await freePort()}`, "--seconds", "1"])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/refused the connection: nothing listens on that port/u)
    const bauds = await runCli("sniff", ["--tcp-listen", "127.0.0.1:4001", "--bauds", "9600"])
    expect(bauds.code).toBe(2)
    expect(bauds.stderr).toMatch(/--bauds goes with --port only/u)
  })
})
