/**
 * The JSON API as the page sees it: every shape comes from the route that answers or reads it
 * (type-only imports, erased from the bundle), so a changed answer fails the page's typecheck.
 */
import type { ButtonDevicesAnswer, CaptureStarted, CaptureView } from "../../buttons/button-routes.ts"
import type { CaptureSources } from "../../buttons/capture-request.ts"
import type { OverlayPreviewAnswer, OverlayPreviewBody } from "../../buttons/court-overlay-preview.ts"
import type { ChangeBody, PreviewAnswer, RefusedAnswer, SavedAnswer, TokenAnswer } from "../../config/config-routes.ts"
import type { ConfigView } from "../../config/config-view.ts"
import type { ChecksAnswer, SetupCheck } from "../../steps/checks.ts"
import type { ConsolesAnswer } from "../../steps/consoles.ts"
import type { DaemonAnswer } from "../../steps/daemon-status.ts"
import type { LayoutAnswer, ListenBody, ListenHeld, ListenOpened, ListenView, MomentsAnswer } from "../../steps/listen-routes.ts"
import type { ServicePlace, ServicePlacesAnswer } from "../../steps/service-places.ts"
import type { SerialPortEntry, SerialPortsAnswer } from "../../steps/serial-ports.ts"
import type { Action } from "../../../config/clicks.ts"
import type { Scoreboard } from "../../../config/place.ts"
import type { ButtonEntry } from "../../buttons/button-entry.ts"
import type { PressFound } from "../../buttons/button-press.ts"
import type { LinkView } from "../../buttons/button-capture.ts"

export type {
  ButtonDevicesAnswer,
  CaptureSources,
  CaptureStarted,
  CaptureView,
  ChangeBody,
  ChecksAnswer,
  ConfigView,
  ConsolesAnswer,
  DaemonAnswer,
  LayoutAnswer,
  LinkView,
  ListenBody,
  ListenOpened,
  ListenView,
  MomentsAnswer,
  OverlayPreviewAnswer,
  OverlayPreviewBody,
  PressFound,
  PreviewAnswer,
  SavedAnswer,
  SerialPortEntry,
  SerialPortsAnswer,
  ServicePlace,
  ServicePlacesAnswer,
  SetupCheck,
  TokenAnswer
}

/** Whatever a refusal carries: its words, and for some routes the problems or the place holding a link. */
export type Refusal = { readonly error?: string } & Partial<RefusedAnswer> & Partial<ListenHeld>

export type Console = ConsolesAnswer["consoles"][number]
export type DaemonPlace = Extract<DaemonAnswer, { readonly reachable: true }>["places"][number]
export type PageAction = typeof Action.Encoded
export type PageButton = ButtonEntry
export type SerialLink = NonNullable<typeof Scoreboard.Encoded["serial"]>
export type TcpLink = NonNullable<typeof Scoreboard.Encoded["tcp"]>
export type UdpLink = NonNullable<typeof Scoreboard.Encoded["udp"]>
export type StatusLight = ListenView["light"]

/** The link of a scoreboard, as the page picks it: one of these keys. */
export interface PageLink {
  serial?: SerialLink
  tcp?: TcpLink
  udp?: UdpLink
  mqtt?: unknown
}

/** A scoreboard as the file has it: its link, its protocol, its options, and what the page does not touch. */
export type FileScoreboard = PageLink & { protocol?: string; options?: Record<string, unknown>; [other: string]: unknown }

/**
 * A place as the file has it (GET /api/config's places, as far as the file parses) and as the page
 * saves it: what the page does not touch rides along as it was.
 */
export interface FilePlace {
  key: string
  name?: string | undefined
  sport?: string | undefined
  scoreboard?: FileScoreboard
  actions?: ReadonlyArray<PageAction>
  [other: string]: unknown
}

