/**
 * The status page: one document and its own two files, /status.css and /status.js (no inline
 * script or style, so the CSP allows neither; no external assets — the mini-PC may be offline).
 * The script fetches /status.json every 2 s and draws one card per place (status-script.ts).
 */

export const statusPageHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>scorebridge status</title>
<link rel="stylesheet" href="status.css">
</head>
<body>
<header><h1>scorebridge</h1><span id="overall" class="pill neutral">LOADING</span><span class="meta" id="meta"></span></header>
<main>
<div id="banner"></div>
<div id="rollback" data-rollback></div>
<ul id="reasons"></ul>
<div class="grid" id="places"></div>
<section class="panel"><h3>Service token</h3><table id="token"></table></section>
<section class="panel"><h3>Links</h3><table id="links"></table></section>
</main>
<script src="status.js"></script>
</body>
</html>
`
