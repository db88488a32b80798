import { startAuditServer } from '../test/helpers/tamper.js';
import { runCliForTest } from '../test/helpers/run-cli.js';
const s = await startAuditServer({ version: 'v12', seed: 'docs' });
s.setTamper((ctx) => {
  if (ctx.path === '/pools/proof') {
    const b = ctx.json as any;
    b.data.pools[1].reserve_contract.reserve_b = '18352.0000000000';
    return { json: b };
  }
  if (ctx.path === '/aggregator/tickers') {
    const t = ctx.json as any;
    t[0].ask = t[0].ask * 0.99;
    return { json: t };
  }
  return undefined;
});
const r = await runCliForTest(['audit', '--base-url', s.base]);
process.stdout.write(r.stdout);
console.log(`exit ${r.code}`);
await s.close();
