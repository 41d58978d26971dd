import { describe, expect, it } from "vitest"
import { checkTemplate, templateNotes, templatePlaceholders } from "../../src/config/template-rules.ts"

const page = (head: string, body = "") => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`
const sized = '<meta renderWidth="600" renderHeight="120">'
const problems = (html: string, values: Record<string, string> = {}) => checkTemplate(html, values).join("\n")

describe("checkTemplate: the render-size meta entry", () => {
  it.each([
    ["double quotes", '<meta renderWidth="600" renderHeight="120">'],
    ["single quotes, other order", "<meta renderHeight='120' renderWidth='600'>"],
    ["no quotes, self-closing", "<meta renderwidth=600 renderheight=120 />"],
    ["upper case, spaces around =", '<META RENDERWIDTH = "600"\n  RenderHeight="120.5" >'],
    ["among other attributes, with > inside a quoted value", '<meta name="a>b" renderWidth="600" content="x" renderHeight="120">'],
    ["after another meta entry", '<meta charset="utf-8"><meta renderHeight="120" renderWidth="600">']
  ])("is found with %s", (_, meta) => {
    expect(checkTemplate(page(meta), {})).toEqual([])
  })

  it("is required", () => {
    expect(problems(page('<meta charset="utf-8">'))).toMatch(/add <meta renderWidth=.* renderHeight=/u)
    expect(problems(page(""))).toMatch(/add <meta renderWidth/u)
  })

  it("does not count when commented out", () => {
    expect(problems(page(`<!-- ${sized} -->`))).toMatch(/add <meta renderWidth/u)
  })

  it("needs both attributes on one entry", () => {
    expect(problems(page('<meta renderWidth="600">'))).toMatch(/lacks renderHeight/u)
    expect(problems(page('<meta renderWidth="600"><meta renderHeight="120">'))).toMatch(/lacks renderHeight/u)
  })

  it("needs numbers of pixels above 0", () => {
    expect(problems(page('<meta renderWidth="600px" renderHeight="120">'))).toMatch(/renderWidth must be a number of pixels above 0, got "600px"/u)
    expect(problems(page('<meta renderWidth="600" renderHeight="">'))).toMatch(/renderHeight must be a number .* got ""/u)
    expect(problems(page('<meta renderWidth="0" renderHeight="120">'))).toMatch(/renderWidth must be a number of pixels above 0/u)
    expect(problems(page("<meta renderWidth renderHeight=120>"))).toMatch(/renderWidth must be a number/u)
    // HTML reads an unquoted value up to whitespace or `>`: the slash is part of it.
    expect(problems(page("<meta renderWidth=600 renderHeight=120/>"))).toMatch(/renderHeight must be a number .* got "120\/"/u)
  })
})

describe("checkTemplate: script entries", () => {
  it.each([
    ["<script>", "<script>alert(1)</script>"],
    ["upper case", "<SCRIPT SRC='x.js'></SCRIPT>"],
    ["mixed case with attributes", '<Script\ttype="module">x()</Script>'],
    ["self-closing", "<script src=x.js />"],
    ["inside svg", "<svg><script>x()</script></svg>"],
    ["inside a comment", "<!-- <script>old()</script> -->"]
  ])("are refused: %s", (_, script) => {
    expect(problems(page(sized, script))).toMatch(/remove the script entry/u)
  })

  it("counts each one", () => {
    expect(problems(page(sized, "<script></script><SCRIPT></SCRIPT>"))).toMatch(/2 <script found/u)
  })

  it("are not confused with similar words", () => {
    expect(checkTemplate(page(sized, "<scripture>text</scripture> <p>script</p> <noscript>x</noscript>"), {})).toEqual([])
  })
})

describe("checkTemplate: placeholders", () => {
  const bug = page(sized, "<b>[homeTeam]</b> [score] <i>[awayTeam]</i> [score]")

  it("passes when every placeholder has a value, an empty string included", () => {
    expect(checkTemplate(bug, { homeTeam: "Lions", awayTeam: "", score: "3-1" })).toEqual([])
  })

  it("lists each missing placeholder by name, once", () => {
    expect(checkTemplate(bug, { homeTeam: "Lions" })).toEqual([
      "values.score: missing for the template's placeholder [score] (an empty string is allowed)",
      "values.awayTeam: missing for the template's placeholder [awayTeam] (an empty string is allowed)"
    ])
  })

  it("finds placeholders in attributes and style entries", () => {
    const html = page(`${sized}<style>body { background-color: [colour]; }</style>`, '<img alt="[label]">')
    expect(templatePlaceholders(html)).toEqual(["colour", "label"])
  })

  it("takes the innermost brackets of nested ones", () => {
    expect(templatePlaceholders("[[name]] [a[b]c] [[[deep]]]")).toEqual(["name", "b", "deep"])
    expect(problems(page(sized, "[[name]]"), { "[name]": "x" })).toMatch(/values\.name: missing/u)
  })

  it("ignores empty brackets and bracketed text with spaces or =", () => {
    expect(templatePlaceholders("[] [two words] [type=text] a[ ]b")).toEqual([])
  })

  it("does not treat a value prototype key as present", () => {
    expect(problems(page(sized, "[constructor]"))).toMatch(/values\.constructor: missing/u)
  })
})

describe("templateNotes", () => {
  it("notes values the template does not use", () => {
    expect(templateNotes(page(sized, "[score]"), { score: "1", spare: "x" })).toEqual([
      "values.spare is not used: the template has no [spare]"
    ])
    expect(templateNotes(page(sized, "[score]"), { score: "1" })).toEqual([])
  })

  it("notes a linked stylesheet, which the service does not load", () => {
    expect(templateNotes(page(`${sized}<link href="s.css" rel="stylesheet">`), {})).toEqual([
      "the template links a stylesheet: the service uses only CSS inline in style entries"
    ])
    expect(templateNotes(page(`${sized}<link rel="icon" href="i.png">`), {})).toEqual([])
  })
})
