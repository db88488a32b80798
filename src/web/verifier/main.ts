/**
 * The verifier page's script (bundled by scripts/build-web.mjs into dist/web/verifier.js and
 * inlined by `reserve-audit verifier`): wires the paste fields, the file drop (DARs, DALFs, type
 * files, a /pools/proof JSON) and the shareable `#cid=…&blob=…` link to ./verify-input.ts, and
 * shows the verdict in `#verdict[data-verdict]`. Everything runs in the page; nothing is fetched
 * or sent. All text from the input is inserted with textContent, never as HTML.
 */
import {
  addTypeSource,
  type ContractView,
  createVerifierTypes,
  normaliseBase64,
  type PoolView,
  peekContractIdVersion,
  verifyPastedContract,
  verifyProofDocument,
} from './verify-input.js';

type Verdict = 'verified' | 'mismatch' | 'could-not-check';

const types = createVerifierTypes();
let lastProof: { name: string; text: string } | null = null;

function $(id: string): HTMLElement {
  const e = document.getElementById(id);
  if (e === null) throw new Error(`#${id} is missing from the page`);
  return e;
}

function el(tag: string, text?: string, cls?: string): HTMLElement {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls !== undefined) e.className = cls;
  return e;
}

const VERDICT_TEXT: Record<Verdict, string> = {
  verified: 'VERIFIED — the contract ID recomputes from the blob',
  mismatch: 'MISMATCH — the contract ID does not belong to this blob',
  'could-not-check': 'COULD NOT CHECK',
};

function showVerdict(v: Verdict, detail: string): void {
  const box = $('verdict');
  box.dataset.verdict = v;
  box.className = `verdict ${v}`;
  box.replaceChildren(el('strong', VERDICT_TEXT[v]), el('span', detail ? ` ${detail}` : ''));
}

function row(table: HTMLElement, k: string, v: string): void {
  const tr = el('tr');
  tr.append(el('th', k), el('td', v));
  table.append(tr);
}

/** The codes whose message names the types to give: the page says how. */
const TYPE_CODES = new Set(['TYPES_REQUIRED', 'TYPE_NOT_FOUND']);

function showReasons(c: ContractView): void {
  const ul = $('reasons');
  ul.replaceChildren(
    ...c.reasons.map((r) => {
      const li = el('li');
      li.append(el('code', r.code), document.createTextNode(` ${r.message}`));
      if (TYPE_CODES.has(r.code))
        li.append(
          el('div', 'Drop that DAR (or type file) anywhere on this page: the check runs again.', 'hint'),
        );
      return li;
    }),
  );
}

function showContract(c: ContractView): void {
  const box = $('contract');
  box.replaceChildren();
  if (c.decoded === null) return;
  box.append(el('h2', 'Decoded contract'));
  const t = el('table');
  row(t, 'template', c.template ?? '-');
  row(t, 'package', c.packageName ?? '-');
  row(t, 'contract ID version', c.version ?? '-');
  row(t, 'signatories', c.signatories.join(', '));
  row(t, 'created at', c.createdAt ?? '-');
  if (c.reserves !== null) {
    row(t, 'pool', c.reserves.poolId ?? '-');
    row(t, 'reserve A', c.reserves.reserveA);
    row(t, 'reserve B', c.reserves.reserveB);
    row(t, 'total LP supply', c.reserves.totalLpSupply);
    if (c.reserves.feeRate !== null) row(t, 'fee rate', c.reserves.feeRate);
  }
  box.append(t);
  const d = el('details');
  d.append(el('summary', 'everything the blob says (JSON)'), el('pre', JSON.stringify(c.decoded, null, 2)));
  box.append(d);
}

function toBase64Url(b64: string): string {
  return b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function runPasted(): void {
  const cid = ($('cid') as HTMLTextAreaElement).value;
  const blob = ($('blob') as HTMLTextAreaElement).value;
  lastProof = null;
  $('pools').replaceChildren();
  const c = verifyPastedContract(cid, blob, types);
  showVerdict(c.verdict, c.template === null ? '' : `(${c.packageName} ${c.template}, ${c.version ?? '?'})`);
  showReasons(c);
  showContract(c);
  const link = $('share') as HTMLAnchorElement;
  link.href = `#cid=${encodeURIComponent(c.contractId)}&blob=${toBase64Url(normaliseBase64(blob))}`;
  link.textContent = 'shareable link to this check';
}

function overall(vs: readonly Verdict[]): Verdict {
  if (vs.includes('mismatch')) return 'mismatch';
  if (vs.length === 0 || vs.includes('could-not-check')) return 'could-not-check';
  return 'verified';
}

function showPools(name: string, pools: readonly PoolView[]): void {
  const vs = pools.map((p) => p.contract.verdict);
  const n = (v: Verdict): number => vs.filter((x) => x === v).length;
  showVerdict(
    overall(vs),
    `${name}: ${pools.length} pools — ${n('verified')} verified, ${n('mismatch')} mismatch, ${n('could-not-check')} could not check`,
  );
  $('reasons').replaceChildren();
  $('contract').replaceChildren();
  const t = el('table');
  const head = el('tr');
  for (const h of [
    'pool',
    'pair',
    'verdict',
    'proof',
    'reserve A',
    'reserve B',
    'published = blob',
    'reasons',
  ])
    head.append(el('th', h));
  t.append(head);
  for (const p of pools) {
    const tr = el('tr');
    tr.dataset.verdict = p.contract.verdict;
    tr.append(
      el('td', p.poolId),
      el('td', p.pair),
      el('td', p.contract.verdict, p.contract.verdict),
      el('td', p.proof),
      el('td', p.contract.reserves?.reserveA ?? p.published.reserveA),
      el('td', p.contract.reserves?.reserveB ?? p.published.reserveB),
      el('td', p.publishedMatches === null ? '-' : p.publishedMatches ? 'yes' : 'NO'),
      el('td', p.contract.reasons.map((r) => `${r.code}: ${r.message}`).join('; ')),
    );
    t.append(tr);
  }
  $('pools').replaceChildren(el('h2', 'Pools'), t);
}

function runProof(name: string, text: string): void {
  lastProof = { name, text };
  try {
    showPools(name, verifyProofDocument(text, types));
  } catch (e) {
    const code = (e as { code?: string }).code ?? 'PROOF_DOCUMENT_INVALID';
    showVerdict('could-not-check', name);
    $('reasons').replaceChildren(el('li', `${code}: ${(e as Error).message}`));
    $('pools').replaceChildren();
  }
}

function showTypes(): void {
  $('types').replaceChildren(
    ...types.sources.map((s) => el('li', `${s.name}: ${s.packages} package${s.packages === 1 ? '' : 's'}`)),
  );
}

/** Adds a DAR, DALF or type file to the page's types; one that does not load is listed as not loaded. */
function loadTypeSource(name: string, label: string, bytes: Uint8Array): void {
  try {
    addTypeSource(types, name, bytes);
    showTypes();
  } catch (e) {
    const code = (e as { code?: string }).code ?? 'TYPE_SOURCE_INVALID';
    $('types').append(el('li', `${label}: not loaded — ${code}: ${(e as Error).message}`, 'error'));
  }
}

async function addFiles(files: FileList | readonly File[]): Promise<void> {
  for (const f of Array.from(files)) {
    const bytes = new Uint8Array(await f.arrayBuffer());
    const text = bytes[0] === 0x7b ? new TextDecoder().decode(bytes) : null;
    if (text !== null && /"pools"\s*:/.test(text) && !/"packages"\s*:/.test(text)) {
      runProof(f.name, text);
      continue;
    }
    loadTypeSource(f.name, f.name, bytes);
  }
  // types change the verdict of V12 IDs: check again what is on screen
  if (lastProof !== null) runProof(lastProof.name, lastProof.text);
  else if (($('cid') as HTMLTextAreaElement).value.trim() !== '') runPasted();
}

function readHash(): void {
  const params = new URLSearchParams(location.hash.slice(1));
  const cid = params.get('cid');
  const blob = params.get('blob');
  if (cid === null || blob === null) return;
  ($('cid') as HTMLTextAreaElement).value = cid;
  ($('blob') as HTMLTextAreaElement).value = blob;
  runPasted();
}

/** The reference server's types, inlined by the page as JSON data: loaded before anything is checked. */
function loadBundledTypes(): void {
  const data = document.getElementById('bundled-types');
  if (data === null || data.textContent === null || data.textContent === '') return;
  loadTypeSource(
    data.dataset.name ?? 'built-in types',
    'built-in types',
    new TextEncoder().encode(data.textContent),
  );
}

function init(): void {
  loadBundledTypes();
  $('verify').addEventListener('click', runPasted);
  $('cid').addEventListener('input', () => {
    const v = peekContractIdVersion(($('cid') as HTMLTextAreaElement).value);
    $('cid-version').textContent = v === null ? '' : `contract ID version ${v}`;
  });
  const input = $('files') as HTMLInputElement;
  input.addEventListener('change', () => {
    if (input.files !== null) void addFiles(input.files);
  });
  document.addEventListener('dragover', (e) => e.preventDefault());
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    if (e.dataTransfer !== null) void addFiles(e.dataTransfer.files);
  });
  window.addEventListener('hashchange', readHash);
  readHash();
  document.body.dataset.ready = 'true';
}

init();
