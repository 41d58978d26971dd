/**
 * The setup page a logged-in browser gets: the skeleton of the seven steps, filled by
 * /setup.js from the JSON API. Nothing here comes from data (the script puts every value
 * in through textContent), and nothing is inline: the CSP allows only 'self' scripts
 * and styles.
 */
const step = (number: number, id: string, title: string, body: string): string => `
<section class="step" id="step-${id}" data-step="${id}" hidden>
<h2><span class="num">${number}</span>${title}</h2>
<p class="summary muted" data-summary></p>
${body}
</section>`

const checks = step(1, "checks", "Checks", `
<p class="muted">What <code>scorebridge doctor</code> checks: the token, the service, the clock, the disk, the broker.</p>
<ul class="checks" id="checks"></ul>
<div class="actions"><button type="button" id="checks-again">Check again</button></div>
<h3>Service token</h3>
<p class="muted" id="token-state"></p>
<form id="token-form" autocomplete="off">
<label for="token">Paste the token the service gave you</label>
<input id="token" name="token" type="password" autocomplete="new-password" spellcheck="false" placeholder="never shown again once stored">
<button type="submit">Store the token</button>
</form>
<p class="message" id="token-message" role="status"></p>
<h3>Service</h3>
<label for="base-url">Service address</label>
<input id="base-url" type="url" inputmode="url" spellcheck="false" placeholder="https://api.example.com">
<label for="company-key">Organization key</label>
<input id="company-key" type="text" spellcheck="false" autocapitalize="off" placeholder="your-club">
<div class="actions"><button type="button" class="primary" data-next="place">Next: the court</button></div>`)

const place = step(2, "place", "The court", `
<p class="muted">Courts from the service's list for your organization. Its sport comes with it.</p>
<p class="message" id="places-message"></p>
<div class="choices" id="service-places"></div>
<details id="place-by-hand"><summary>Not in the list, or a name of your own? Type it</summary>
<label for="place-key">Place key (as the service names it)</label>
<input id="place-key" type="text" spellcheck="false" autocapitalize="off">
<label for="place-name">Name shown on the status page</label>
<input id="place-name" type="text">
<label for="place-sport">Sport</label>
<input id="place-sport" type="text" spellcheck="false" autocapitalize="off" placeholder="basketball">
<div class="actions"><button type="button" id="place-typed">Use this court</button></div>
</details>`)

const consoleStep = step(3, "console", "The scoreboard console", `
<label>Maker</label>
<div class="choices" id="makers"></div>
<label id="models-label" hidden>Model</label>
<div class="choices" id="models"></div>
<div id="console-facts"></div>`)

const link = step(4, "link", "The cable or network link", `
<div class="tabs" id="link-kinds"></div>
<div id="link-serial" hidden>
<p class="muted">USB serial adapters plugged in now, by their stable names (they survive replugging and reboots).</p>
<div class="choices" id="serial-ports"></div>
<div class="actions"><button type="button" id="ports-again">Look again</button></div>
<label for="baud-rate">Line speed (baud)</label>
<select id="baud-rate"></select>
</div>
<div id="link-network" hidden>
<label for="link-address" id="link-address-label">Address and port</label>
<input id="link-address" type="text" spellcheck="false" autocapitalize="off" inputmode="url">
<p class="muted" id="link-address-help"></p>
</div>
<div class="actions"><button type="button" class="primary" id="link-done">Next: listen to the console</button></div>`)

const listen = step(5, "listen", "Listening", `
<div class="light"><span class="badge" id="listen-badge">—</span><span class="detail" id="listen-detail"></span></div>
<div class="reading" id="listen-reading"></div>
<p class="small" id="listen-counts"></p>
<p class="message" id="listen-message"></p>
<h3>Does the board show this?</h3>
<div class="actions">
<button type="button" class="go" id="board-yes">Yes: next, the buttons</button>
<button type="button" id="board-no">No</button>
<button type="button" id="listen-again">Listen again</button>
</div>
<div id="finder" hidden>
<h3>Find the layout</h3>
<p class="muted">Type what the board shows now, note it, and again when it has changed: two or three moments. Leave out what the board does not show.</p>
<div class="fields">
<div><label for="moment-home">Home</label><input id="moment-home" type="text" inputmode="numeric"></div>
<div><label for="moment-guest">Guest</label><input id="moment-guest" type="text" inputmode="numeric"></div>
<div><label for="moment-period">Period</label><input id="moment-period" type="text" inputmode="numeric"></div>
<div><label for="moment-clock">Clock</label><input id="moment-clock" type="text" inputmode="decimal" placeholder="7:56"></div>
</div>
<div class="actions"><button type="button" id="moment-note">Note this moment</button><button type="button" class="primary" id="layout-find">Find the layout</button></div>
<ul class="moments" id="moments"></ul>
<p class="message" id="finder-message"></p>
<div class="report" id="finder-lines"></div>
<div class="actions"><button type="button" class="go" id="layout-accept" hidden>Use these settings</button></div>
</div>`)

const buttons = step(6, "buttons", "Buttons", `
<p class="muted">Courtside buttons: the page listens on every source ticked here at once and binds the one that fires.</p>
<label class="inline"><input type="checkbox" id="source-mqtt" checked>The broker: zigbee2mqtt and Shelly buttons</label>
<label for="mqtt-url">Broker address</label>
<input id="mqtt-url" type="text" spellcheck="false" autocapitalize="off" inputmode="url" placeholder="mqtt://127.0.0.1:1883">
<h3>Also listen on…</h3>
<label class="inline"><input type="checkbox" id="source-serial">A serial button box (a microcontroller on a USB adapter)</label>
<select id="button-serial" aria-label="Serial adapter of the button box"></select>
<label class="inline"><input type="checkbox" id="source-device">An input device (a USB foot switch or keypad)</label>
<select id="button-device" aria-label="Input device"></select>
<label class="inline"><input type="checkbox" id="source-gpio">GPIO (buttons wired to the mini-PC's pins)</label>
<div class="fields"><div><label for="gpio-chip">Chip</label><select id="gpio-chip"></select></div>
<div><label for="gpio-lines">Lines</label><input id="gpio-lines" type="text" inputmode="numeric" spellcheck="false" placeholder="17, 27"></div></div>
<div class="actions"><button type="button" class="primary" id="button-listen">Listen for a button</button><button type="button" id="button-sources-again">Look for devices again</button></div>
<div class="press" id="button-press" hidden>Press the button now</div>
<ul class="list small" id="button-links"></ul>
<div id="button-found" hidden>
<p class="message good" id="button-described"></p>
<label for="button-do">What it does</label>
<select id="button-do"><option value="highlight">Highlight</option><option value="undo">Undo the last highlight</option></select>
<label for="button-team">For</label>
<select id="button-team"><option value="home">Home</option><option value="away">Guest</option><option value="none">No team</option></select>
<div class="actions"><button type="button" class="go" id="button-use">Use this button</button></div>
</div>
<h3>Buttons of this court</h3>
<ul class="list" id="actions"></ul>
<h3>Overlay preview</h3>
<div id="overlay-preview"><p class="muted">Shown once the court has a console.</p></div>
<div class="actions"><button type="button" class="primary" data-next="save">Next: save</button></div>`)

const save = step(7, "save", "Save", `
<div class="actions"><button type="button" class="primary" id="preview">Show the change</button></div>
<div class="problems" id="save-problems"></div>
<pre class="diff" id="diff" hidden></pre>
<div class="actions"><button type="button" class="go" id="save" disabled>Save and reload the bridge</button></div>
<p class="message" id="save-message" role="status"></p>
<div id="after-save" hidden>
<h3>The court on the bridge</h3>
<div class="light"><span class="badge" id="daemon-badge">—</span><span class="detail" id="daemon-detail"></span></div>
<dl class="facts"><dt>First entry</dt><dd id="daemon-entry">none yet</dd><dt>Test press</dt><dd id="daemon-clip">If an event is running at this court, press the button now: the clip's outcome shows here.</dd></dl>
</div>`)

export const appPageHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>scorebridge setup</title>
<meta name="referrer" content="same-origin">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/setup.css">
<script src="/setup.js" defer></script>
</head>
<body>
<header><h1>scorebridge setup</h1><span class="meta" id="meta"></span>
<form method="post" action="/logout"><button type="submit">Log out</button></form></header>
<main>
<p class="message" id="banner" role="alert"></p>
<section class="step current" id="courts">
<h2>Courts</h2>
<p class="muted" id="config-state"></p>
<div class="problems" id="config-problems"></div>
<ul class="list" id="court-list"></ul>
<div class="actions"><button type="button" class="primary" id="court-add">Set up a court</button></div>
</section>
${checks}${place}${consoleStep}${link}${listen}${buttons}${save}
</main>
</body>
</html>
`
