import { Schema } from "effect"

/** A timeline was asked for a place the config does not have. */
export class UnknownPlace extends Schema.TaggedError<UnknownPlace>()("UnknownPlace", {
  place: Schema.String,
  known: Schema.Array(Schema.String)
}) {
  override get message() {
    return `unknown place "${this.place}": known places are ${this.known.join(", ")}`
  }
}
