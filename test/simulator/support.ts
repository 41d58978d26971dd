import { startSimulator, type RunningSimulator, type SimulatorOptions, type SimulatorSeed } from "../../simulator/index.ts"
import { SimulatorControl } from "../../simulator/control-client.ts"

/** Two organizations, so tests can check that one cannot see or touch the other's objects. */
export const twoOrgSeed: SimulatorSeed = {
  organizations: [
    {
      key: "org-a",
      name: "Org A",
      tokens: ["token-a"],
      places: [
        { key: "court-1", name: "Court 1", sport: "tennis", location: { name: "Club", geoLoc: { lat: 1, lng: 2 } } },
        { key: "court-2", name: "Court 2", sport: "volleyball" },
        { key: "field-1", name: "Field 1", sport: "basketball" }
      ]
    },
    { key: "org-b", name: "Org B", tokens: ["token-b"], places: [{ key: "rink-b", name: "Rink", sport: "hockey" }] }
  ]
}

export interface Answer {
  readonly status: number
  readonly body: any
  readonly headers: Headers
}

export interface Harness {
  readonly sim: RunningSimulator
  readonly control: SimulatorControl
  /** A call as organization A (or with `token`; `null` sends no Authorization header). */
  call(method: string, path: string, body?: unknown, token?: string | null): Promise<Answer>
  close(): Promise<void>
}

export async function startHarness(options: SimulatorOptions = {}): Promise<Harness> {
  const sim = await startSimulator({ requestsPerSecond: 1000, burst: 1000, seed: twoOrgSeed, ...options })
  return {
    sim,
    control: new SimulatorControl(sim.url),
    call: async (method, path, body, token = "token-a") => {
      const response = await fetch(`${sim.url}${path}`, {
        method,
        headers: {
          ...(token === null ? {} : { authorization: `Bearer ${token}` }),
          ...(body === undefined ? {} : { "content-type": "application/json" })
        },
        ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) })
      })
      const text = await response.text()
      return { status: response.status, body: text === "" ? null : JSON.parse(text), headers: response.headers }
    },
    close: () => sim.close()
  }
}

export const fieldsOf = (answer: Answer): Array<string> =>
  (answer.body?.errors ?? []).map((e: { field: string }) => e.field)

/** A valid tennis entry at `timeStamp`. */
export const tennisEntry = (timeStamp: number, points: [number, number] = [1, 0]) => ({
  timeStamp,
  left: 0,
  right: 0,
  period: 1,
  scoreValue: { gameScores: [[0, 0]], pointScore: points }
})
