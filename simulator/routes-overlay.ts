import { Schema } from "effect"
import type { PublicContext } from "./context.ts"
import { decodeOr400 } from "./failure.ts"
import { ok, type Route } from "./router.ts"
import { Overlays } from "./validate-overlay.ts"

const PreviewBody = Schema.Struct({ overlays: Overlays, sourceURL: Schema.optional(Schema.NonEmptyString) })

/** Checks the overlays as the service would; the answer points at a fake video, nothing is rendered. */
const overlayPreview = (ctx: PublicContext) => {
  decodeOr400(PreviewBody, ctx.body)
  return ok({ videoURL: `${ctx.view.mediaBase}/previews/${ctx.store.nextKey("pv")}.mp4` })
}

export const overlayRoutes: ReadonlyArray<Route<PublicContext>> = [
  { method: "POST", pattern: "/public/overlay-preview", handle: overlayPreview }
]
