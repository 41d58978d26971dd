/**
 * The page a browser without a session gets: one field for the one-time code the
 * setup server printed. No script (the form posts by itself) and no inline style: the
 * Content-Security-Policy allows only /setup.css. The message comes from the server
 * (a wrong code, too many tries) but is escaped like any other value.
 * `referrer: same-origin` repeats the server's Referrer-Policy: under `no-referrer` Chromium sends
 * `Origin: null` with a form's POST (the login form here), which the CSRF check must refuse; this
 * policy still sends no referrer to any other site. The data: icon spares a favicon request.
 */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

export const loginPageHtml = (message?: string): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>scorebridge setup: log in</title>
<meta name="referrer" content="same-origin">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/setup.css">
</head>
<body>
<header><h1>scorebridge setup</h1></header>
<main class="login">
<section class="step">
<h2>Log in</h2>
<p>Type the code the setup server printed on the mini-PC (the line <code>setup code: …</code>). Each code works once: the server prints a new one for the next browser.</p>
${message === undefined || message === "" ? "" : `<p class="message bad-text" role="alert" data-login-message>${escapeHtml(message)}</p>`}
<form method="post" action="/login">
<label for="code">Setup code</label>
<input id="code" name="code" type="text" inputmode="text" autocomplete="off" autocapitalize="characters" spellcheck="false" required autofocus placeholder="ABCD-EFGH">
<button type="submit" class="primary">Log in</button>
</form>
</section>
</main>
</body>
</html>
`
