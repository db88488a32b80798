/**
 * Output of `replay`: a one-line summary with the findings below it (human), or one JSON document
 * {summary, findings, checks} with the checks that did not pass (--json).
 */
import type { ReplayReport } from '../../run/replay.js';
import { formatDisplayValue } from './display.js';
import { type Style, stringifyJson } from './style.js';

export function formatReplayJson(report: ReplayReport): string {
  const checks = report.checks.filter((c) => c.status !== 'pass');
  return `${stringifyJson({ summary: report.summary, findings: report.findings, checks })}\n`;
}

export function formatReplayText(report: ReplayReport, st: Style): string {
  const s = formatDisplayValue(report.summary);
  const word =
    s.outcome === 'passed'
      ? st.green('PASSED')
      : s.outcome === 'failed'
        ? st.red('FAILED')
        : st.yellow('COULD NOT CHECK');
  const lines = [
    `${word}  ${s.mirror}  contracts ${s.contracts} (verified ${s.verified}, mismatch ${s.mismatch}, could not check ${s.couldNotCheck})  pools ${s.pools}  observations ${s.observations}  ${s.contractsPerSecond} contracts/s\n`,
  ];
  for (const f of formatDisplayValue(report.findings))
    lines.push(`  ${f.severity} ${f.code}${f.pool === null ? '' : ` [${f.pool}]`} ${f.message}\n`);
  return lines.join('');
}
