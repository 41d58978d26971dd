export interface Rate {
  readonly requestsPerSecond: number
  readonly burst: number
}

/** Admits a request with this much in the bucket: 20 ms of refill at 1 req/s, so timer jitter is no 429. */
const admitAt = 0.98

/** One token bucket per API token: capacity `burst`, refilled at `requestsPerSecond`. */
export class RateLimiter {
  #rate: Rate
  readonly #buckets = new Map<string, { tokens: number; at: number }>()

  constructor(rate: Rate) {
    this.#rate = rate
  }

  get rate(): Rate {
    return this.#rate
  }

  /** A new rate starts every bucket full, so a test changing it starts from a known state. */
  setRate(rate: Rate): void {
    this.#rate = rate
    this.#buckets.clear()
  }

  /** Consumes one token when admitted; a rejected request consumes nothing. */
  admit(apiToken: string, now: number): boolean {
    const { requestsPerSecond, burst } = this.#rate
    const bucket = this.#buckets.get(apiToken) ?? { tokens: burst, at: now }
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * requestsPerSecond)
    bucket.at = now
    this.#buckets.set(apiToken, bucket)
    if (bucket.tokens < admitAt) return false
    bucket.tokens -= 1
    return true
  }
}
