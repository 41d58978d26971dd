import type { ChildProcess } from "node:child_process"

/**
 * Collects a daemon child's output: pino JSON lines from stdout (a line that is not JSON is kept
 * as its text, level 0) and the last 8 kB of stderr for failure messages.
 */
export const collectDaemonOutput = <Line extends { readonly level: number; readonly msg: string }>(
  child: ChildProcess,
  plain: (text: string) => Line
) => {
  const logs: Array<Line> = []
  let partial = ""
  let stderr = ""
  child.stdout!.setEncoding("utf8")
  child.stdout!.on("data", (text: string) => {
    const lines = (partial + text).split("\n")
    partial = lines.pop() ?? ""
    for (const line of lines) {
      if (line.trim() === "") continue
      try {
        logs.push(JSON.parse(line) as Line)
      } catch {
        logs.push(plain(line))
      }
    }
  })
  child.stderr!.setEncoding("utf8")
  child.stderr!.on("data", (text: string) => {
    stderr = (stderr + text).slice(-8_000)
  })
  return { logs, stderr: () => stderr }
}
