import { Effect, Schema } from "effect"
const S = Schema.Struct({
  a: Schema.Int.annotate({ description: "the a", default: 3 }).pipe(Schema.withDecodingDefaultKey(Effect.succeed(3))),
  b: Schema.Int.pipe(Schema.withDecodingDefaultKey(Effect.succeed(3))).annotate({ description: "the b", default: 3 }),
  c: Schema.optionalKey(Schema.String).annotate({ description: "the c" }),
  d: Schema.optionalKey(Schema.String.annotate({ description: "the d" })),
  e: Schema.Int.pipe(Schema.withDecodingDefaultKey(Effect.succeed(3))).annotateKey({ description: "the e", default: 3 }),
}).annotate({ title: "Root", description: "root desc" })
console.log(JSON.stringify(Schema.toJsonSchemaDocument(S, { onExcessProperty: "error" }), null, 1))
