import { openTestLedger } from './helpers.js';
const { exchange: ex } = openTestLedger({ seed: 'prof' });
let t = performance.now();
const r = ex.prefillHistory({ duration: 3600_000 * 5, swapsPerMinute: 2 });
console.log(r, (performance.now() - t) / (r.executed + r.refunded), 'ms/swap');
