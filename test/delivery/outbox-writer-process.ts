import { spawn } from "node:child_process"
import * as path from "node:path"

const root = path.resolve(import.meta.dirname, "../..")
export const nodeBinary = path.join(root, "node_modules/.bin/node")
export const writerScript = path.join(root, "test/support/outbox-writer.ts")

export interface Ack {
  readonly id: number
  readonly seq: number
}

export interface WriterRun {
  readonly acks: ReadonlyArray<Ack>
  /** The writer's "error <tag> <message>" line, if it reported one. */
  readonly error: string | undefined
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

/**
 * Runs `command args` (the writer, possibly wrapped in `unshare`) and collects its acks.
 * `killAfter`: SIGKILL the process as soon as that many acks have been read.
 */
export const runWriter = (
  command: string,
  args: ReadonlyArray<string>,
  options: { readonly killAfter?: number; readonly timeoutMs?: number } = {}
): Promise<WriterRun> =>
  new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] })
    const acks: Array<Ack> = []
    let error: string | undefined
    let pending = ""
    let stderr = ""
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 20_000)
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    child.stdout.on("data", (chunk: Buffer) => {
      pending += chunk.toString()
      const lines = pending.split("\n")
      // The last piece is an incomplete line (or ""): an ack is only counted once its newline arrived.
      pending = lines.pop() ?? ""
      for (const line of lines) {
        const ack = /^(\d+) (\d+)$/.exec(line)
        if (ack !== null) acks.push({ id: Number(ack[1]), seq: Number(ack[2]) })
        else if (line.startsWith("error ")) error = line
        else stderr += `(stdout) ${line}\n`
      }
      if (options.killAfter !== undefined && acks.length >= options.killAfter) child.kill("SIGKILL")
    })
    child.on("error", reject)
    child.on("close", (code, signal) => {
      clearTimeout(timer)
      if (code === 1) reject(new Error(`writer crashed:\n${stderr}`))
      else resolve({ acks, error, code, signal })
    })
  })
