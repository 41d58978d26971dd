/** The status page's style, served as /status.css. */
export const statusCss = `:root { --bg:#f3f4f6; --card:#fff; --ink:#111827; --muted:#6b7280; --line:#e5e7eb;
  --live:#15803d; --nodata:#b45309; --down:#b91c1c; --info:#1d4ed8; }
* { box-sizing:border-box; }
body { margin:0; font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif; background:var(--bg); color:var(--ink); }
header { background:#111827; color:#fff; padding:14px 20px; display:flex; flex-wrap:wrap; align-items:center; gap:10px 18px; }
header h1 { font-size:19px; margin:0; font-weight:650; letter-spacing:.2px; }
header .meta { color:#9ca3af; font-size:13px; margin-left:auto; }
.pill { display:inline-block; white-space:nowrap; border-radius:999px; padding:2px 10px; font-size:12px; font-weight:700; letter-spacing:.4px; color:#fff; }
.ok { background:var(--live); } .warn { background:var(--nodata); } .bad { background:var(--down); } .neutral { background:#4b5563; } .blue { background:var(--info); }
main { padding:16px; max-width:1280px; margin:0 auto; }
#banner { display:none; background:#fee2e2; color:#7f1d1d; border:1px solid #fecaca; padding:10px 14px; border-radius:10px; margin-bottom:14px; font-weight:600; }
#rollback { display:none; background:#fff7ed; color:#7c2d12; border:1px solid #fdba74; border-left:6px solid #ea580c; padding:10px 14px; border-radius:10px; margin-bottom:14px; font-weight:600; overflow-wrap:anywhere; }
#rollback code { font:13px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace; background:#ffedd5; padding:1px 5px; border-radius:5px; }
#reasons { margin:0 0 14px; padding:10px 14px 10px 30px; background:#fff7ed; border:1px solid #fed7aa; border-radius:10px; color:#7c2d12; }
#reasons:empty { display:none; }
.grid { display:grid; grid-template-columns:repeat(auto-fit,minmax(360px,1fr)); gap:16px; align-items:start; }
.card { background:var(--card); border-radius:14px; box-shadow:0 1px 3px rgba(0,0,0,.08); border-top:8px solid var(--muted); overflow:hidden; }
.card.LIVE { border-top-color:var(--live); } .card.NODATA { border-top-color:var(--nodata); } .card.DISCONNECTED { border-top-color:var(--down); }
.head { display:flex; align-items:center; justify-content:space-between; gap:10px; padding:14px 16px 2px; }
.head h2 { margin:0; font-size:21px; }
.sub { color:var(--muted); font-size:12.5px; padding:0 16px; overflow-wrap:anywhere; }
.badge { font-size:20px; font-weight:800; letter-spacing:.6px; padding:6px 14px; border-radius:10px; color:#fff; white-space:nowrap; }
.badge.LIVE { background:var(--live); } .badge.NODATA { background:var(--nodata); } .badge.DISCONNECTED { background:var(--down); }
.detail { margin:8px 16px 10px; color:#374151; font-size:14px; overflow-wrap:anywhere; }
.card.NODATA .detail { color:#92400e; } .card.DISCONNECTED .detail { color:#991b1b; }
.problems { margin:0 16px 10px; padding:8px 12px; background:#fef2f2; color:#991b1b; border-radius:8px; font-size:13px; }
.problems:empty { display:none; }
.clipwarn { margin:0 16px 10px; padding:8px 12px; background:#fffbeb; color:#78350f; border:1px solid #fcd34d; border-left:6px solid #d97706; border-radius:8px; font-size:14px; font-weight:650; }
dl { display:grid; grid-template-columns:max-content 1fr; gap:6px 14px; margin:0; padding:10px 16px 14px; border-top:1px solid var(--line); }
dt { color:var(--muted); font-size:13px; padding-top:1px; }
dd { margin:0; overflow-wrap:anywhere; }
.score { font-size:26px; font-weight:800; font-variant-numeric:tabular-nums; line-height:1.1; margin-right:8px; }
.small { color:var(--muted); font-size:12px; }
.race { border-top:1px solid var(--line); padding:4px 16px 10px; }
.race h4 { margin:8px 0 2px; font-size:13px; font-weight:650; color:#374151; }
.finish { display:grid; grid-template-columns:2.4em 2.2em 4.4em 5em minmax(0,1fr); gap:0 8px; align-items:center; padding:3px 0; border-bottom:1px solid var(--line); font-size:14px; font-variant-numeric:tabular-nums; }
.finish:last-child { border-bottom:none; } .finish.cols { color:var(--muted); font-size:12px; padding-top:0; } .finish .place { font-weight:750; }
code.shown { font:13px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace; white-space:pre; background:#f3f4f6; padding:1px 5px; border-radius:5px; }
.timeline { margin:0; padding:8px 8px 6px; border-top:1px solid var(--line); }
.timeline img { display:block; width:100%; height:auto; }
.errors { border-top:1px solid var(--line); padding:8px 16px 12px; font-size:13px; }
.errors summary { cursor:pointer; color:var(--muted); }
.errors ul { margin:6px 0 0; padding-left:18px; } .errors li { margin:2px 0; overflow-wrap:anywhere; }
section.panel { background:var(--card); border-radius:14px; box-shadow:0 1px 3px rgba(0,0,0,.08); padding:12px 16px; margin-top:16px; }
section.panel h3 { margin:0 0 8px; font-size:15px; }
table { border-collapse:collapse; width:100%; font-size:14px; } td { padding:5px 12px 5px 0; border-bottom:1px solid var(--line); vertical-align:top; overflow-wrap:anywhere; }
tr:last-child td { border-bottom:none; } td:first-child { white-space:nowrap; color:var(--muted); width:1%; } #links td:nth-child(2) { width:1%; }
#links td:last-child { white-space:nowrap; color:var(--muted); width:1%; }
@media (max-width:480px) { main { padding:10px; } .grid { grid-template-columns:1fr; } .badge { font-size:17px; padding:5px 10px; } header .meta { margin-left:0; }
  table, tbody, tr, td { display:block; } tr { border-bottom:1px solid var(--line); padding:6px 0; } tr:last-child { border-bottom:none; }
  td, td:first-child, #links td:nth-child(2), #links td:last-child { width:auto; border:none; padding:1px 0; white-space:normal; } }
`
