import { FINDING_CODES } from '../src/core/audit/finding-codes.js';
const rows = Object.entries(FINDING_CODES).map(([c, d]) => `| \`${c}\` | ${d.severity} | ${d.area} | ${d.label} | ${d.title} |`);
console.log(rows.join('\n'));
