// The library through the package's public exports only (`reserve-audit`, `reserve-audit/core`):
// verify a V12 contract ID from a shipped example blob, then start the reference server on a free
// port, audit it in-process, and stop it. Run from the checkout after `npm ci`: node examples/library.mjs
import { readFileSync } from 'node:fs';
import { runAudit, sha256Node, startServer } from 'reserve-audit';
import { createTypeEnv, parseTypeFile, verifyContractId } from 'reserve-audit/core';

const here = (name) => new URL(name, import.meta.url);
const types = createTypeEnv(
  parseTypeFile(JSON.parse(readFileSync(here('../fixtures/types/splice-amulet-0.1.17.types.json'), 'utf8'))).packages,
);
const r = verifyContractId({
  contractId: readFileSync(here('omr.cid'), 'utf8').trim(),
  blob: readFileSync(here('omr.b64'), 'utf8').trim(),
  types,
  sha256: sha256Node,
});
const { module, entity } = r.contract.templateId;
console.log(`${r.status}: ${r.contract.packageName} ${module.join('.')}:${entity.join('.')} (${r.version})`);

const server = await startServer({
  port: 0,
  host: '127.0.0.1',
  db: ':memory:',
  contractIdVersion: 'v12',
  seed: 'library-example',
  simulation: false,
  logger: { info() {}, error() {} },
});
try {
  const report = await runAudit({ baseUrl: `${server.url}/v1/public`, probeQuotes: true });
  const { outcome, exitCode, pools, proofsIdVerified, assurance } = report.summary;
  console.log(
    `audit ${outcome} (exit ${exitCode}): ${proofsIdVerified} of ${pools} contract IDs verified, assurance ${assurance.level}`,
  );
  process.exitCode = exitCode; // 0 passed, 1 failed, 2 could not check — as `reserve-audit audit` exits
} finally {
  await server.close();
}
