import { openMirror, loadObservationsForHistoryChecks } from '../src/io/store/index.js';
import { loadMirrorHistory } from '../src/io/audit-run.js';
const m = openMirror(process.argv[2]!, { readonly: true });
let t = performance.now();
const o = loadObservationsForHistoryChecks(m, { limitPerPool: Number.MAX_SAFE_INTEGER });
console.log('H7 query', (performance.now() - t).toFixed(0), 'ms', o.size);
t = performance.now();
const h = loadMirrorHistory(m, [], { limitPerPool: Number.MAX_SAFE_INTEGER });
console.log('loadMirrorHistory', (performance.now() - t).toFixed(0), 'ms', h.series.size);
