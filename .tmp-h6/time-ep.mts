import { startAuditServer } from '../test/helpers/tamper.js';
const s = await startAuditServer({ version: 'v12' });
for (const p of ['/pools/proof','/pools/state','/tokens/info','/swap/info','/markets/info','/exchange/info','/pools/info','/stats','/volume','/aggregator/pairs','/aggregator/tickers','/aggregator/orderbook?ticker_id=CC_USDCX','/aggregator/orderbook?ticker_id=CC_USDCX']) {
  const t = performance.now(); const r = await fetch(s.directBase + p); await r.text(); console.log(p, r.status, (performance.now()-t).toFixed(1));
}
await s.close();
