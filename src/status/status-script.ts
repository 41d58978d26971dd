/**
 * The status page's script, served as /status.js: it fetches /status.json every 2 s and
 * draws one card per place. Every value goes in through textContent, never as
 * HTML: error texts come from devices and the network. Each card shows its place's
 * timeline as an <img> of /places/<key>/timeline.svg, kept across redraws and
 * re-requested only when status.json says that place's timeline changed. Every time is
 * the venue's: its zone (status.json's venueClock) and the timeline's 24-hour style. A place
 * whose board is a timing console's race shows its clock, event, heat and phase, and its last
 * finishes with their clicks' clips.
 */
import { clockLocale, clockOptions } from "../timeline/time-ticks.ts"

export const statusScript = `"use strict";
var lastOk = 0;
function el(tag, cls, text) { var e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined && text !== null) e.textContent = String(text); return e; }
function span(ms) { var m = Math.max(1, Math.round(ms / 60000)); return m < 60 ? "about " + m + " min" : "about " + Math.floor(m / 60) + " h " + (m % 60) + " min"; }
function ago(ms, now) { if (ms === null || ms === undefined) return "never"; var s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 2) return "just now"; if (s < 60) return s + " s ago"; if (s < 3600) return Math.floor(s / 60) + " min ago"; return Math.floor(s / 3600) + " h " + Math.floor((s % 3600) / 60) + " min ago"; }
// The venue's zone and the timeline's style, never the viewer's: a phone set to another zone or language reads the venue's clock.
var clockStyle = ${JSON.stringify(clockOptions(true))}, venueFormat = null, venueZone = null, venueOffset = 0;
function venue(v) { if (!v) return; venueOffset = v.utcOffsetMinutes; if (v.timeZone === venueZone) return; venueZone = v.timeZone;
  try { venueFormat = new Intl.DateTimeFormat(${JSON.stringify(clockLocale)}, Object.assign({ timeZone: v.timeZone }, clockStyle)); } catch (e) { venueFormat = null; } }
// A browser that does not know the zone: the offset at the last snapshot.
function clock(ms) { if (ms === null || ms === undefined) return ""; return venueFormat ? venueFormat.format(ms) : new Date(ms + venueOffset * 60000).toISOString().slice(11, 19); }
var clipClass = { "clip-ready": "ok", "no-clip": "bad", deleted: "neutral", unchecked: "warn" };
var answerClass = { delivered: "ok", queued: "blue", retrying: "warn", warning: "warn", dead: "bad", missed: "bad" };
function answer(a) { var span = el("span"); if (!a) return span; span.appendChild(el("span", "pill " + (answerClass[a.state] || "neutral"), a.state.toUpperCase()));
  if (a.detail && a.state !== "delivered") span.appendChild(el("span", "small", " " + a.detail)); return span; }
// A click's clip as the Clip line shows it: its outcome as a pill, and the clip's link once ready (http(s) only).
function clipBadge(k) { return el("span", "pill " + (clipClass[k.outcome] || "blue"), (k.outcome || "waiting").replace("-", " ").toUpperCase()); }
function clipLink(k) { if (!k.videoURL || !/^https?:[/][/]/i.test(k.videoURL)) return null;
  var a = el("a", null, "open clip"); a.setAttribute("href", k.videoURL); a.setAttribute("target", "_blank"); a.setAttribute("rel", "noopener noreferrer"); return a; }
function ordinal(n) { var t = n % 100; return n + (t >= 11 && t <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" })[n % 10] || "th"); }
var phaseWords = { waiting: ["WAITING FOR THE START", "neutral"], running: ["RACING", "blue"], blank: ["CLOCK BLANK", "warn"], unread: ["BOARD NOT READ YET", "neutral"] };
function eventHeat(event, heat) { return [event === null ? null : "Event " + event, heat === null ? null : "Heat " + heat].filter(Boolean).join(" · "); }
// The race as the board shows it now: the running clock large, the event and heat, the phase.
function raceView(race) { var v = el("span"); v.setAttribute("data-race", race.phase);
  var c = el("span", "score", race.clock === null ? "—" : race.clock); c.setAttribute("data-race-clock", ""); v.appendChild(c);
  // Not read since a restart: the board's event and heat are not known, not "none shown".
  var eh = el("span", null, (eventHeat(race.event, race.heat) || (race.phase === "unread" ? "" : "no event or heat shown")) + " "); eh.setAttribute("data-race-event", ""); v.appendChild(eh);
  var ph = phaseWords[race.phase] || [race.phase, "neutral"], pill = el("span", "pill " + ph[1], ph[0]); pill.setAttribute("data-race-phase", ""); v.appendChild(pill);
  if (race.blanked) v.appendChild(el("span", "pill warn", "BOARD BLANKED")); return v; }
// What became of a finish's click: its clip when followed, else the service's answer.
function finishClip(f) { if (f.clip) { var s = el("span"); s.setAttribute("data-finish-clip", f.clip.outcome || "waiting"); s.title = f.clip.text; s.appendChild(clipBadge(f.clip));
    var link = clipLink(f.clip); if (link) { s.appendChild(document.createTextNode(" ")); s.appendChild(link); } return s; }
  if (f.answer) return answer(f.answer); return el("span", "small", f.clickItemId === null ? "no click" : "#" + f.clickItemId); }
function finishRow(cells, cls) { var r = el("div", "finish" + (cls ? " " + cls : "")); cells.forEach(function (c) { r.appendChild(c instanceof Node ? c : el("span", null, c)); }); return r; }
// The last finishes: the newest race first, each race by place, under its event and heat.
function finishes(race) { var box = el("div", "race"); box.setAttribute("data-finishes", "");
  if (race.finishes.length === 0) { box.appendChild(el("div", "small", "No finish yet")); return box; }
  var shown = -1;
  race.finishes.forEach(function (f) {
    if (f.race !== shown) { shown = f.race; box.appendChild(el("h4", null, (eventHeat(f.event, f.heat) || "Race") + (f.race === 0 ? "" : " (earlier race)")));
      box.appendChild(finishRow(["Place", "Lane", "Time", "Touch", "Clip"], "cols")); }
    var r = finishRow([el("span", "place", ordinal(f.place)), "L" + f.lane, f.time, clock(f.at), finishClip(f)]);
    r.setAttribute("data-finish", f.lane); if (f.swimmer) r.title = f.swimmer; box.appendChild(r); });
  return box; }
function entryText(e) { var sets = e.scoreValue && e.scoreValue.gameScores ? e.scoreValue.gameScores.map(function (g) { return g[0] + "-" + g[1]; }).join(" ") : "";
  var pts = e.scoreValue && e.scoreValue.pointScore ? " (" + e.scoreValue.pointScore.join("–") + ")" : "";
  return e.left !== undefined && !sets ? e.left + "–" + e.right + " P" + e.period : sets + pts; }
var timelines = {};
function timelineFigure(p) {
  var t = timelines[p.key];
  if (!t) { t = { img: el("img"), url: "" }; t.img.alt = "Timeline of " + (p.name || p.key); t.img.setAttribute("data-timeline", p.key); timelines[p.key] = t; }
  // An <img> follows no link inside it: the picture opens the SVG itself, whose clip-ready marks open their clips.
  var fig = el("figure", "timeline"), open = el("a"); open.setAttribute("href", "places/" + encodeURIComponent(p.key) + "/timeline.svg"); open.target = "_blank";
  open.title = "Open the timeline: each clip-ready mark opens its clip"; open.appendChild(t.img); fig.appendChild(open); return fig;
}
// Laid out for the width it is shown at (in steps, so a resize does not refetch at every pixel): text stays readable on a phone.
function showTimelines(versions) {
  Object.keys(timelines).forEach(function (key) { var t = timelines[key], fig = t.img.parentNode && t.img.parentNode.parentNode; if (!fig || !fig.isConnected) return;
    var width = Math.max(320, Math.ceil(fig.clientWidth / 40) * 40);
    var url = "places/" + encodeURIComponent(key) + "/timeline.svg?width=" + width + "&v=" + encodeURIComponent((versions && versions[key]) || "");
    if (url !== t.url) { t.url = url; t.img.setAttribute("src", url); } });
}
function row(dl, label, value) { dl.appendChild(el("dt", null, label)); var dd = el("dd"); if (value instanceof Node) dd.appendChild(value); else dd.textContent = value; dl.appendChild(dd); }
function card(p, now) {
  var badgeKey = p.source.badge.replace(" ", "");
  var c = el("article", "card " + badgeKey); c.setAttribute("data-place", p.key);
  var head = el("div", "head");
  head.appendChild(el("h2", null, p.name || p.key));
  var badge = el("div", "badge " + badgeKey, p.source.badge); badge.setAttribute("data-badge", "");
  head.appendChild(badge); c.appendChild(head);
  c.appendChild(el("div", "sub", p.key + (p.sport ? " · " + p.sport : "") + " · " + p.source.link + " " + p.source.target));
  c.appendChild(el("div", "detail", p.source.detail));
  var cp = p.clipProblem, problems = el("div", "problems");
  p.reasons.filter(function (r) { return r.indexOf(p.source.detail) < 0 && !(cp && r === p.key + ": " + cp.text); }).forEach(function (r) { problems.appendChild(el("div", null, r.replace(p.key + ": ", ""))); }); c.appendChild(problems);
  if (cp) { var warn = el("div", "clipwarn", "⚠ " + cp.text); warn.setAttribute("data-clip-problem", ""); c.appendChild(warn); }
  var dl = el("dl");
  var r = p.lastReading, score = el("span"), scored = r && (r.home !== undefined || r.away !== undefined);
  if (scored) { score.appendChild(el("span", "score", (r.home === undefined ? "?" : r.home) + "–" + (r.away === undefined ? "?" : r.away)));
    score.appendChild(el("span", "small", p.lastReadingText.split(" · ").slice(1).join(" · "))); }
  else score.appendChild(el("span", null, p.lastReadingText || "—"));
  // A race without team scores: its own line says all the board shows.
  if (!p.race || scored) row(dl, "Scoreboard", score);
  if (p.race) row(dl, "Race", raceView(p.race));
  if (r && r.shown) r.shown.forEach(function (x) { var code = el("code", "shown", x.text); code.setAttribute("data-shown", x.label); row(dl, x.label, code); });
  row(dl, "Last frame", p.lastReadingAt ? ago(p.lastReadingAt, now) + " (" + clock(p.lastReadingAt) + ")" : (p.lastBytesAt ? "bytes " + ago(p.lastBytesAt, now) + ", none valid" : "none yet"));
  var d = p.decoder; row(dl, "Frames", d.frames + " ok · " + d.badFrames + " bad · " + d.overlong + " overlong");
  var ev = p.event; row(dl, "Event", ev === null ? "not known yet" : ev.key === null ? "no event running" : ((ev.homeTeam || "Home") + " vs " + (ev.awayTeam || "Away") + "  (" + ev.key + ")"));
  var entry = el("span");
  if (p.lastEntry) { entry.appendChild(el("span", null, entryText(p.lastEntry.entry) + " at " + clock(p.lastEntry.entry.timeStamp) + " ")); entry.appendChild(answer(p.lastEntry.answer)); } else entry.textContent = "none yet";
  row(dl, "Last entry", entry);
  var q = p.queue; row(dl, "Queue", q.score + " scores · " + q.click + " clicks · " + q.undo + " undos" + (q.oldestPendingAt ? " — oldest " + ago(q.oldestPendingAt, now) : ""));
  var past = q.pastEvents; if (past.entries > 0) { var pastRow = el("span", null, past.entries + " entries of " + past.events + " past event" + (past.events === 1 ? "" : "s") + " wait behind the live ones — " +
    (past.throughAt === null ? "none being sent now (the service unreachable, or every slot taken by live scores and clicks)" : "through in " + span(past.throughAt - now) + " at the current rate (about " + clock(past.throughAt) + ")"));
    pastRow.setAttribute("data-past-events", String(past.entries)); row(dl, "Past events", pastRow); }
  var press = el("span");
  if (p.lastPress) { press.appendChild(el("span", null, p.lastPress.gesture + " on " + p.lastPress.source + "/" + p.lastPress.button + ", " + ago(p.lastPress.at, now) + " "));
    if (p.lastPress.answer) press.appendChild(answer(p.lastPress.answer)); else press.appendChild(el("div", "small", p.lastPress.text));
    var late = p.lastPress.late; if (late) { var lateLine = el("div", "small late", "LATE: waited at the broker while the bridge was not listening; pressed " +
      (late.after === null ? "before " + clock(late.arrivedAt) : "between " + clock(late.after) + " and " + clock(late.arrivedAt)) + ", window widened to " + clock(late.startTime) + "–" + clock(late.endTime));
      lateLine.setAttribute("data-late", ""); press.appendChild(lateLine); } } else press.textContent = "none yet";
  row(dl, "Last click", press);
  var k = p.lastClick; if (k) { var clip = el("span"); clip.setAttribute("data-clip", k.outcome || "waiting");
    clip.appendChild(clipBadge(k)); clip.appendChild(el("span", null, " " + k.text + " · #" + k.itemId + " pressed " + clock(k.pressedAt) + " "));
    var link = clipLink(k); if (link) clip.appendChild(link);
    row(dl, "Clip", clip); }
  if (p.buttons.length > 0) { var b = el("span"); p.buttons.forEach(function (x) { b.appendChild(el("span", "pill " + (x.badge === "LIVE" ? "ok" : "bad"), x.source)); b.appendChild(document.createTextNode(" ")); }); row(dl, "Buttons", b); }
  c.appendChild(dl);
  if (p.race) c.appendChild(finishes(p.race));
  c.appendChild(timelineFigure(p));
  if (p.errors.length > 0) { var det = el("details", "errors"); det.appendChild(el("summary", null, "Recent errors (" + p.errors.length + ")")); var ul = el("ul");
    p.errors.slice(0, 8).forEach(function (e) { ul.appendChild(el("li", null, clock(e.at) + "  " + e.text + (e.times > 1 ? "  (×" + e.times + ")" : ""))); }); det.appendChild(ul); c.appendChild(det); }
  return c;
}
// The upgrade guard went back a version: said until a later version passes its watch. \`command\` parts in <code>.
function rollback(r) { var b = document.getElementById("rollback"); b.replaceChildren(); b.style.display = r ? "block" : "none"; if (!r) return;
  r.text.split("\u0060").forEach(function (part, i) { b.appendChild(i % 2 === 1 ? el("code", null, part) : document.createTextNode(part)); }); }
function table(id, rows) { var t = document.getElementById(id); t.replaceChildren(); rows.forEach(function (r) { var tr = el("tr"); r.forEach(function (v) { var td = el("td"); if (v instanceof Node) td.appendChild(v); else td.textContent = v; tr.appendChild(td); }); t.appendChild(tr); }); }
function render(s) {
  var now = s.generatedAt; venue(s.venueClock);
  var overall = document.getElementById("overall"); overall.textContent = s.healthy ? "ALL LIVE" : s.reasons.length + " PROBLEM" + (s.reasons.length > 1 ? "S" : ""); overall.className = "pill " + (s.healthy ? "ok" : "bad");
  document.getElementById("meta").textContent = "updated " + clock(now) + " · running since " + clock(s.startedAt) + (s.clockSkewMs === null ? "" : " · clock vs service " + (s.clockSkewMs >= 0 ? "+" : "") + (s.clockSkewMs / 1000).toFixed(1) + " s") + " · times in " + s.venueClock.timeZone;
  rollback(s.rollback);
  var reasons = document.getElementById("reasons"); reasons.replaceChildren(); s.reasons.forEach(function (r) { reasons.appendChild(el("li", null, r)); });
  var places = document.getElementById("places"); places.replaceChildren(); s.places.forEach(function (p) { places.appendChild(card(p, now)); });
  showTimelines(s.timelines);
  var t = s.token; var state = t.suspended ? el("span", "pill bad", "PAUSED: " + t.suspended) : t.backoffUntil ? el("span", "pill warn", "BACKING OFF (429) for " + Math.ceil((t.backoffUntil - now) / 1000) + " s") : el("span", "pill ok", "OK");
  table("token", [["State", state], ["Requests, last minute", t.sentLastMinute + " of " + t.limitPerMinute + " allowed"], ["Waiting for a slot", t.waiting.click + " clicks · " + t.waiting.score + " live scores · " + t.waiting.backlog + " past events' entries"]]);
  table("links", s.links.map(function (l) { return [l.name, el("span", "pill " + (l.up ? "ok" : "bad"), l.up ? "UP" : l.state.toUpperCase()),
    l.target + (l.detail && !l.up ? " — " + l.detail : ""), (l.up ? "up" : "down") + " since " + clock(l.since) + (l.connects > 1 ? " · " + (l.connects - 1) + " reconnects" : "")]; }));
}
function tick() {
  fetch("status.json", { cache: "no-store" }).then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.json(); })
    .then(function (s) { lastOk = Date.now(); document.getElementById("banner").style.display = "none"; render(s); })
    .catch(function (e) { var b = document.getElementById("banner"); b.style.display = "block";
      b.textContent = "The bridge is not answering (" + e.message + ")" + (lastOk ? "; last update " + ago(lastOk, Date.now()) : "") + ". What you see may be out of date."; })
    .finally(function () { setTimeout(tick, 2000); });
}
tick();
`
