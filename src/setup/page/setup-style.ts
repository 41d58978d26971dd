/**
 * The setup pages' style, served as /setup.css (the CSP allows no inline style). The
 * status page's palette and lights, so the LIVE a technician sees here is the LIVE
 * they will see there. Phone first: one column, 48 px touch targets, 16 px inputs (a
 * smaller font makes phones zoom into the field); wider screens get a wider column.
 */
export const setupCss = `:root { --bg:#f3f4f6; --card:#fff; --ink:#111827; --muted:#6b7280; --line:#e5e7eb;
  --live:#15803d; --nodata:#b45309; --down:#b91c1c; --info:#1d4ed8; }
* { box-sizing:border-box; }
html { -webkit-text-size-adjust:100%; }
body { margin:0; font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif; background:var(--bg); color:var(--ink); }
header { background:#111827; color:#fff; padding:12px 16px; display:flex; flex-wrap:wrap; align-items:center; gap:8px 16px; }
header h1 { font-size:19px; margin:0; font-weight:650; letter-spacing:.2px; }
header .meta { color:#9ca3af; font-size:13px; margin-left:auto; }
header button { min-height:40px; background:#374151; color:#fff; border-color:#4b5563; }
main { padding:12px; max-width:860px; margin:0 auto; }
main.login { max-width:460px; }
h2 { font-size:20px; margin:0 0 8px; }
h3 { font-size:16px; margin:14px 0 6px; }
p { margin:6px 0 10px; }
code, .mono { font:14px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace; overflow-wrap:anywhere; }
code { background:#eef2f7; padding:1px 5px; border-radius:5px; }
.step { background:var(--card); border-radius:14px; box-shadow:0 1px 3px rgba(0,0,0,.08); padding:14px 16px 16px; margin:0 0 14px; border-top:6px solid var(--line); }
.step.done { border-top-color:var(--live); }
.step.current { border-top-color:var(--info); }
.step[hidden] { display:none; }
.step > h2 .num { display:inline-block; min-width:30px; height:30px; line-height:30px; text-align:center; border-radius:50%; background:#111827; color:#fff; font-size:15px; margin-right:8px; }
label { display:block; font-weight:600; margin:12px 0 4px; }
label.inline { display:flex; align-items:center; gap:10px; font-weight:500; margin:6px 0; min-height:44px; }
input, select, textarea { font:inherit; font-size:16px; width:100%; min-height:48px; padding:10px 12px; border:1px solid #cbd5e1; border-radius:10px; background:#fff; color:var(--ink); }
input[type=radio], input[type=checkbox] { width:24px; min-height:24px; height:24px; margin:0; flex:none; }
textarea { min-height:90px; }
input:focus, select:focus, textarea:focus, button:focus-visible { outline:3px solid #93c5fd; outline-offset:1px; }
button { font:inherit; font-weight:650; min-height:48px; padding:10px 18px; border-radius:10px; border:1px solid #cbd5e1; background:#fff; color:var(--ink); cursor:pointer; }
button.primary { background:var(--info); border-color:var(--info); color:#fff; }
button.go { background:var(--live); border-color:var(--live); color:#fff; }
button.danger { background:#fff; border-color:#fca5a5; color:var(--down); }
button:disabled { opacity:.5; cursor:not-allowed; }
form button, .actions button { margin-top:12px; }
.actions { display:flex; flex-wrap:wrap; gap:10px; margin-top:6px; }
.actions button { flex:1 1 auto; }
.pill { display:inline-block; white-space:nowrap; border-radius:999px; padding:2px 10px; font-size:12px; font-weight:700; letter-spacing:.4px; color:#fff; vertical-align:middle; }
.ok { background:var(--live); } .warn { background:var(--nodata); } .fail, .bad { background:var(--down); } .neutral { background:#4b5563; } .blue { background:var(--info); }
.bad-text { color:var(--down); font-weight:600; }
.ok-text { color:var(--live); font-weight:600; }
.muted, .small { color:var(--muted); font-size:13px; }
.message { padding:10px 12px; border-radius:10px; background:#fef2f2; border:1px solid #fecaca; overflow-wrap:anywhere; }
.message.info { background:#eff6ff; border-color:#bfdbfe; color:#1e3a8a; font-weight:500; }
.message.good { background:#f0fdf4; border-color:#bbf7d0; color:#14532d; font-weight:500; }
.message:empty { display:none; }
.badge { display:inline-block; font-size:20px; font-weight:800; letter-spacing:.6px; padding:6px 14px; border-radius:10px; color:#fff; white-space:nowrap; background:#4b5563; }
.badge.LIVE { background:var(--live); } .badge.NODATA { background:var(--nodata); } .badge.DISCONNECTED { background:var(--down); }
.light { display:flex; flex-wrap:wrap; align-items:center; gap:8px 14px; margin:8px 0; }
.light .detail { color:#374151; font-size:14px; overflow-wrap:anywhere; flex:1 1 200px; }
.reading { font-size:26px; font-weight:800; font-variant-numeric:tabular-nums; background:#111827; color:#fde68a; border-radius:12px; padding:12px 16px; margin:8px 0; overflow-wrap:anywhere; }
.reading:empty::before { content:"—"; color:#6b7280; }
ul.checks, ul.list { list-style:none; margin:0; padding:0; }
ul.checks li, ul.list li { display:flex; flex-wrap:wrap; gap:4px 10px; align-items:baseline; padding:9px 0; border-bottom:1px solid var(--line); }
ul.checks li:last-child, ul.list li:last-child { border-bottom:none; }
ul.checks .title { font-weight:600; flex:1 1 180px; }
ul.checks .detail, ul.checks .fix { flex:1 1 100%; font-size:14px; color:#374151; overflow-wrap:anywhere; }
ul.checks .fix { color:#7c2d12; }
.choices { display:grid; grid-template-columns:1fr; gap:8px; margin:6px 0; }
.choice { display:block; text-align:left; width:100%; min-height:56px; font-weight:600; }
.choice .small { display:block; font-weight:400; }
.choice.chosen { border:2px solid var(--info); background:#eff6ff; }
.note { background:#fffbeb; border:1px solid #fde68a; border-left:6px solid #d97706; border-radius:10px; padding:10px 12px; font-size:14px; white-space:pre-line; overflow-wrap:anywhere; }
.tabs { display:flex; flex-wrap:wrap; gap:8px; margin:6px 0; }
.tabs button { flex:1 1 120px; }
.tabs button.chosen { background:#111827; color:#fff; border-color:#111827; }
pre.diff { font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace; background:#0f172a; color:#e2e8f0; padding:10px 12px; border-radius:10px; overflow-x:auto; margin:8px 0; white-space:pre; max-height:60vh; }
pre.diff .add { color:#86efac; display:block; } pre.diff .del { color:#fca5a5; display:block; } pre.diff .hunk { color:#93c5fd; display:block; } pre.diff .same { display:block; }
.problems { margin:8px 0; padding:8px 12px; background:#fef2f2; color:#991b1b; border-radius:8px; font-size:14px; }
.problems:empty { display:none; }
.problems .path { font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace; font-weight:700; margin-right:6px; }
.press { font-size:18px; font-weight:700; text-align:center; padding:18px 12px; border:2px dashed var(--info); border-radius:14px; color:var(--info); margin:8px 0; }
.overlay { background:#111827; color:#fff; border-radius:10px; padding:10px 12px; margin:6px 0; font-size:14px; overflow-wrap:anywhere; }
.overlay .team { color:#fde68a; font-weight:700; margin-right:8px; }
.overlay .small { color:#cbd5e1; margin-top:4px; } .overlay .bad-text { color:#fca5a5; }
ul.list li > span:first-child { flex:1 1 200px; }
dl.facts { display:grid; grid-template-columns:max-content 1fr; gap:6px 14px; margin:8px 0; }
dl.facts dt { color:var(--muted); font-size:14px; } dl.facts dd { margin:0; overflow-wrap:anywhere; }
ul.moments { margin:6px 0; padding-left:20px; font-size:14px; }
.fields { display:grid; grid-template-columns:repeat(2,1fr); gap:0 10px; }
.report { font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace; background:#f8fafc; border:1px solid var(--line); border-radius:10px; padding:8px 10px; margin:8px 0; }
.report div { white-space:pre-wrap; overflow-wrap:anywhere; }
.report:empty { display:none; }
@media (min-width:700px) {
  main { padding:20px; }
  .choices { grid-template-columns:repeat(2,1fr); }
  .fields { grid-template-columns:repeat(4,1fr); }
  .actions button { flex:0 0 auto; }
}
`
