import { describe, expect, it } from "vitest"
import { checkBaseUrl } from "../../src/service/base-url.ts"
import { InvalidBaseUrl } from "../../src/service/errors.ts"

describe("service base URL", () => {
  it.each([
    ["https://api.example.com", "https://api.example.com/"],
    ["https://api.example.com/v1/", "https://api.example.com/v1/"],
    ["http://127.0.0.1:8080", "http://127.0.0.1:8080/"],
    ["http://127.9.8.7:1", "http://127.9.8.7:1/"],
    ["http://localhost:3000", "http://localhost:3000/"],
    ["http://[::1]:3000", "http://[::1]:3000/"]
  ])("accepts %s", (raw, href) => {
    const url = checkBaseUrl(raw)
    expect(url).toBeInstanceOf(URL)
    expect((url as URL).href).toBe(href)
  })

  it.each([
    ["http://api.example.com", "http:// is allowed only to loopback"],
    ["http://10.0.0.1:8080", "http:// is allowed only to loopback"],
    ["http://128.0.0.1", "http:// is allowed only to loopback"],
    ["http://localhost.evil.com", "http:// is allowed only to loopback"],
    ["http://[::2]", "http:// is allowed only to loopback"],
    ["ftp://127.0.0.1", "unsupported scheme ftp:"],
    ["api.example.com", "not an absolute URL"],
    ["https://api.example.com/?x=1", "no query or fragment"]
  ])("refuses %s", (raw, why) => {
    const refused = checkBaseUrl(raw)
    expect(refused).toBeInstanceOf(InvalidBaseUrl)
    const error = refused as InvalidBaseUrl
    expect(error.url).toBe(raw)
    expect(error.message).toContain(raw)
    expect(error.message).toContain(why)
  })

  it("refuses credentials in the URL without repeating them", () => {
    const refused = checkBaseUrl("https://user:hunter2@api.example.com")
    expect(refused).toBeInstanceOf(InvalidBaseUrl)
    expect(String(refused)).not.toContain("hunter2")
    expect(JSON.stringify(refused)).not.toContain("hunter2")
  })
})
