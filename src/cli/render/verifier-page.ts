/**
 * The single-file verifier page (issue 13 "the verifier"): the HTML shell, its CSS, and the bundled
 * script (dist/web/verifier.js, the pure core + fflate) inlined — no external resource, nothing
 * fetched or sent. The script fills `#verdict` (with `data-verdict`), `#reasons`, `#contract` and
 * `#pools`; see src/web/verifier/main.ts.
 */
const CSS = `
:root{--ok:#176f2c;--bad:#b00020;--warn:#8a5300;--line:#d0d4da;--muted:#5b6470}
*{box-sizing:border-box}body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d232b;background:#f6f7f9}
main{max-width:1100px;margin:0 auto;padding:24px}h1{font-size:1.5rem;margin:.2em 0}h2{font-size:1.1rem;margin:1.2em 0 .4em}
.lead{color:var(--muted);margin-top:0}.card{background:#fff;border:1px solid var(--line);border-radius:8px;padding:16px;margin:12px 0}
label{display:block;font-weight:600;margin:.6em 0 .2em}textarea{width:100%;font:12px/1.4 ui-monospace,Menlo,Consolas,monospace;border:1px solid var(--line);border-radius:6px;padding:8px}
#cid{height:4.2em}#blob{height:7em}button{font:inherit;font-weight:600;background:#1f4fd1;color:#fff;border:0;border-radius:6px;padding:8px 18px;margin-top:10px;cursor:pointer}
.drop{border:2px dashed var(--line);border-radius:8px;padding:12px;color:var(--muted)}
.verdict{font-size:1.15rem;padding:14px 16px;border-radius:8px;border:1px solid var(--line);background:#fff}
.verdict.verified{background:#e8f5ec;border-color:#9fd3ad;color:var(--ok)}.verdict.mismatch{background:#fdecee;border-color:#f1a7b1;color:var(--bad)}
.verdict.could-not-check{background:#fff5e5;border-color:#f0c987;color:var(--warn)}
td.verified{color:var(--ok);font-weight:600}td.mismatch{color:var(--bad);font-weight:600}td.could-not-check{color:var(--warn);font-weight:600}
table{border-collapse:collapse;width:100%;background:#fff}th,td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top;font-size:13px;overflow-wrap:anywhere}
th{color:var(--muted);font-weight:600;white-space:nowrap}code{font:12px ui-monospace,Menlo,Consolas,monospace;background:#eef0f3;padding:1px 4px;border-radius:3px}
pre{font:12px/1.4 ui-monospace,Menlo,Consolas,monospace;background:#fff;border:1px solid var(--line);padding:8px;overflow:auto;max-height:30em}
.small{font-size:13px;color:var(--muted)}li.error{color:var(--bad)}#reasons li{margin:.2em 0;overflow-wrap:anywhere}.hint{font-weight:600;color:var(--warn)}
`;

/**
 * The whole page around the bundled script; `bundledTypes` (the reference server's type file, its
 * `</script` escaped) is inlined as data the script loads first, so the server's V12 contracts
 * verify without dropping a file.
 */
export function formatVerifierPage(script: string, bundledTypes: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<title>reserve-audit verifier — check a Canton contract ID offline</title><style>${CSS}</style></head>
<body><main>
<h1>Check a Canton contract ID</h1>
<p class="lead">Recomputes a contract ID from its <code>created_event_blob</code> with reserve-audit's core, in this page. Nothing is sent anywhere; the page works offline. A pass proves that the ID belongs to this blob (template, arguments, signatories, creation time) — not that the contract exists or is still active on the ledger.</p>
<div class="card">
<label for="cid">Contract ID (hex)</label><textarea id="cid" spellcheck="false" placeholder="00…"></textarea><div id="cid-version" class="small"></div>
<label for="blob">created_event_blob (base64)</label><textarea id="blob" spellcheck="false" placeholder="CgMyLjES…"></textarea>
<button id="verify" type="button">Verify</button> <a id="share" class="small" href="#"></a>
</div>
<div class="card drop"><label for="files">Or drop files anywhere on the page</label>
A <code>/pools/proof</code> JSON (every pool is verified), and for V12 contract IDs the DARs (or type files) of the contract's package — the reference server's are built in.
<input id="files" type="file" multiple accept=".dar,.dalf,.json"><ul id="types" class="small"></ul></div>
<div id="verdict" class="verdict" data-verdict="" role="status" aria-live="polite">Paste a contract ID and its blob, or drop a file.</div>
<ul id="reasons"></ul>
<section id="contract"></section>
<section id="pools"></section>
<p class="small">reserve-audit verifier — V10, V11 and V12 contract IDs; SHA-256 by @noble/hashes, DAR inflate by fflate, both inlined.</p>
</main>
<script type="application/json" id="bundled-types" data-name="the reference server's types (fixtures/types/amm-pools.json, built in)">${bundledTypes}</script>
<script>${script}</script>
</body></html>
`;
}
