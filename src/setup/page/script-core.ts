import { clockLocale, clockOptions } from "../../timeline/time-ticks.ts"

/**
 * The page script's shared parts: the API call (same-origin cookie, JSON bodies, a
 * 401 says the session ended), elements built with textContent only, the venue's
 * times, and the steps' order. Plain ES2020 in a String.raw template: served as /setup.js.
 */
export const scriptCore = String.raw`"use strict";
const state = { config: null, consoles: [], replaces: null, base: {}, place: null, console: null, maker: null,
  linkKind: null, link: null, options: {}, listenId: null, listenTimer: null, buttonId: null, buttonTimer: null,
  pressed: null, buttons: [], actions: [], daemonTimer: null, lastPreview: null };
const stepOrder = ["checks", "place", "console", "link", "listen", "buttons", "save"];
const $ = (id) => document.getElementById(id);
function el(tag, cls, text) { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined && text !== null) e.textContent = String(text); return e; }
function clear(node) { node.replaceChildren(); return node; }
// The venue's clock (GET /api/config's venueClock: the mini-PC's zone, which the status page and the
// layout report use too) in the timeline's 24-hour style, never the phone's zone or language.
const venue = { format: null, zone: null, offset: 0 };
function venueClock(v) { if (!v || v.timeZone === venue.zone) return; venue.zone = v.timeZone; venue.offset = v.utcOffsetMinutes;
  try { venue.format = new Intl.DateTimeFormat(${JSON.stringify(clockLocale)}, Object.assign({ timeZone: v.timeZone }, ${JSON.stringify(clockOptions(true))})); } catch (e) { venue.format = null; } }
// A browser that does not know the zone: its offset when the page read the config.
function hms(at) { if (at === undefined || at === null) return ""; const d = new Date(at); if (isNaN(d.getTime())) return String(at);
  return venue.format ? venue.format.format(d) : new Date(d.getTime() + venue.offset * 60000).toISOString().slice(11, 19); }
function say(id, text, kind) { const m = $(id); m.textContent = text || ""; m.className = "message" + (kind ? " " + kind : ""); }
function sessionEnded() { say("banner", "Your session has ended. Reload the page and log in with a new code (the setup server prints one).");
  stopPolling(); }
// background: the page's own polling, which the server serves without counting it as use (no idle stop or session kept alive by an open tab).
async function api(method, path, body, background) {
  const init = { method: method, credentials: "same-origin", referrerPolicy: "same-origin", headers: { Accept: "application/json" } };
  if (background) init.headers["X-Scorebridge-Background"] = "1";
  if (body !== undefined) { init.headers["Content-Type"] = "application/json"; init.body = JSON.stringify(body); }
  let response;
  try { response = await fetch(path, init); }
  catch (e) { return { status: 0, ok: false, json: { error: "The setup server does not answer (" + e.message + "): it stops by itself after 30 minutes unused." } }; }
  const text = await response.text(); let json = {};
  try { json = text ? JSON.parse(text) : {}; } catch (e) { json = { error: text }; }
  if (response.status === 401) sessionEnded();
  return { status: response.status, ok: response.ok, json: json };
}
function errorOf(r) { return (r.json && r.json.error) || ("HTTP " + r.status); }
function choice(title, small, chosen, onPick) {
  const b = el("button", "choice" + (chosen ? " chosen" : ""), title); b.type = "button";
  if (small) b.appendChild(el("span", "small", small));
  b.addEventListener("click", onPick); return b;
}
function show(id) { const s = $("step-" + id); s.hidden = false; return s; }
function markStep(id) {
  const at = stepOrder.indexOf(id);
  stepOrder.forEach((name, i) => { const s = $("step-" + name); s.classList.toggle("current", i === at); s.classList.toggle("done", i < at && !s.hidden); });
}
function goTo(id) { show(id); markStep(id); $("step-" + id).scrollIntoView({ block: "start", behavior: "instant" });
  const enter = entries[id]; if (enter) enter(); }
function summary(id, text) { $("step-" + id).querySelector("[data-summary]").textContent = text || ""; }
const entries = {};
function stopPolling() { stopListening(); stopButtonListening(); if (state.daemonTimer) { clearTimeout(state.daemonTimer); state.daemonTimer = null; } }
`
