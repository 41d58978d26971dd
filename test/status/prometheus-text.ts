/**
 * A strict reader of the Prometheus text exposition format (0.0.4), enough to
 * prove /metrics parses: every sample belongs to a family declared by `# TYPE`,
 * names and labels are well formed, values are numbers.
 */
export interface Sample {
  readonly name: string
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

export interface Family {
  readonly type: string
  readonly help: string | undefined
  readonly samples: Array<Sample>
}

const metricName = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/u
const sampleLine = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: -?\d+)?$/u
const labelPair = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\["\\n])*)"(?:,|$)/u
const types = new Set(["counter", "gauge", "histogram", "summary", "untyped"])
const suffixes = ["_bucket", "_sum", "_count", "_total", ""]

const parseLabels = (text: string | undefined, line: string): Record<string, string> => {
  const labels: Record<string, string> = {}
  let rest = text ?? ""
  for (let guard = 0; rest.length > 0 && guard < 100; guard++) {
    const match = labelPair.exec(rest)
    if (match === null) throw new Error(`malformed labels in: ${line}`)
    labels[match[1]!] = match[2]!.replace(/\\n/gu, "\n").replace(/\\(["\\])/gu, "$1")
    rest = rest.slice(match[0].length)
  }
  return labels
}

export const parsePrometheus = (text: string): Map<string, Family> => {
  const families = new Map<string, Family>()
  if (!text.endsWith("\n")) throw new Error("the exposition must end with a newline")
  for (const line of text.split("\n")) {
    if (line === "") continue
    if (line.startsWith("# TYPE ")) {
      const [name, type] = line.slice(7).split(" ")
      if (!metricName.test(name ?? "") || !types.has(type ?? "")) throw new Error(`bad TYPE line: ${line}`)
      if (families.has(name!)) throw new Error(`family declared twice: ${name}`)
      families.set(name!, { type: type!, help: undefined, samples: [] })
      continue
    }
    if (line.startsWith("# HELP ")) continue
    if (line.startsWith("#")) continue
    const match = sampleLine.exec(line)
    if (match === null) throw new Error(`malformed sample: ${line}`)
    const value = Number(match[3] === "+Inf" ? Infinity : match[3] === "-Inf" ? -Infinity : match[3])
    if (Number.isNaN(value) && match[3] !== "NaN") throw new Error(`bad value in: ${line}`)
    const name = match[1]!
    const family = suffixes.map((s) => (name.endsWith(s) ? families.get(name.slice(0, name.length - s.length)) : undefined)).find((f) => f !== undefined)
    if (family === undefined) throw new Error(`sample without a # TYPE: ${line}`)
    family.samples.push({ name, labels: parseLabels(match[2], line), value })
  }
  return families
}

/** The value of the one sample with that name and (at least) those labels. */
export const valueOf = (families: Map<string, Family>, name: string, labels: Readonly<Record<string, string>> = {}): number | undefined => {
  for (const family of families.values()) {
    for (const sample of family.samples) {
      if (sample.name === name && Object.entries(labels).every(([k, v]) => sample.labels[k] === v)) return sample.value
    }
  }
  return undefined
}
