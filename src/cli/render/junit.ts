/**
 * JUnit XML for CI (the issue "--junit"): one <testsuite> per audit area, one <testcase> per
 * check; a failed check has a <failure>, a could-not-check check an <error>, a skipped one
 * <skipped/>, each listing the findings it raised (./finding-index.ts: one pass over the findings,
 * not one per check). Text is XML-escaped, control characters shown as `\uXXXX`. An audit that did not complete
 * (./audit-failure.ts) is one testsuite `audit` with one errored testcase naming the cause.
 */
import {
  ASSURANCE_LEVELS,
  ASSURANCE_LIMITS,
  type AssuranceLevel,
  AUDIT_AREAS,
  type AuditCoverage,
  type CheckOutcome,
  type Finding,
} from '../../core/audit/index.js';
import { formatDisplayText } from '../../core/wire/display-text.js';
import type { AuditFailure } from './audit-failure.js';
import { buildFindingIndex } from './finding-index.js';
import { escapeMarkup } from './html-report.js';

/** XML 1.0 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]. */
function isXmlChar(ch: string): boolean {
  const c = ch.codePointAt(0) ?? 0;
  return (
    c === 0x9 ||
    c === 0xa ||
    c === 0xd ||
    (c >= 0x20 && c <= 0xd7ff) ||
    (c >= 0xe000 && c <= 0xfffd) ||
    c >= 0x10000
  );
}

/**
 * Escapes text for XML attributes and content: control and bidirectional-control characters are
 * written as visible `\uXXXX` escapes (src/core/wire/display-text.ts; line breaks kept), then the
 * characters XML 1.0 still forbids (lone surrogates, U+FFFE, U+FFFF) are dropped.
 */
function escapeXml(s: string): string {
  return escapeMarkup(Array.from(formatDisplayText(s, true)).filter(isXmlChar).join(''), '&apos;');
}

/** The assurance level a run reached and the pools per level (docs/findings.md "Assurance levels"). */
export interface JunitAssurance {
  readonly level: AssuranceLevel;
  readonly pools: Readonly<Record<AssuranceLevel, number>>;
}

/**
 * `<properties>` naming what the run covered (coverage.quotes, coverage.history, coverage.types)
 * and the assurance level it reached with what that level does not prove.
 */
function formatCoverageProperties(
  coverage: AuditCoverage | undefined,
  assurance: JunitAssurance | undefined,
): string[] {
  if (coverage === undefined && assurance === undefined) return [];
  const prop = (key: string, value: string): string =>
    `      <property name="${key}" value="${escapeXml(value)}"/>`;
  return [
    '    <properties>',
    ...(assurance === undefined
      ? []
      : [
          prop('assurance.level', assurance.level),
          prop('assurance.pools', ASSURANCE_LEVELS.map((l) => `${l} ${assurance.pools[l]}`).join(', ')),
          prop('assurance.does-not-prove', ASSURANCE_LIMITS[assurance.level]),
        ]),
    ...(coverage === undefined
      ? []
      : [
          prop('coverage.quotes', coverage.quotes.text),
          prop('coverage.history', coverage.history.text),
          ...(coverage.followed === undefined ? [] : [prop('coverage.followed', coverage.followed.text)]),
          prop('coverage.types', coverage.types.text),
        ]),
    '    </properties>',
  ];
}

/** `tests="…" failures="…" errors="…" skipped="…"` of a suite of checks. */
function formatCountAttributes(checks: readonly Pick<CheckOutcome, 'status'>[]): string {
  const n = (status: CheckOutcome['status']): number => checks.filter((c) => c.status === status).length;
  return `tests="${checks.length}" failures="${n('fail')}" errors="${n('could-not-check')}" skipped="${n('skipped')}"`;
}

/**
 * The JUnit document. With `coverage`, every testsuite starts with `<properties>` saying what the
 * run did not check (quotes not probed, no mirror, bundled types), so a green CI job is read as
 * no more than it is.
 */
export function formatJunit(
  checks: readonly CheckOutcome[],
  findings: readonly Finding[],
  name = 'reserve-audit',
  coverage?: AuditCoverage,
  assurance?: JunitAssurance,
): string {
  const props = formatCoverageProperties(coverage, assurance);
  const index = buildFindingIndex(findings);
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeXml(name)}" ${formatCountAttributes(checks)}>`,
  ];
  const byArea = new Map<string, CheckOutcome[]>();
  for (const c of checks) {
    const list = byArea.get(c.area);
    if (list === undefined) byArea.set(c.area, [c]);
    else list.push(c);
  }
  for (const area of AUDIT_AREAS) {
    const list = byArea.get(area) ?? [];
    if (list.length === 0) continue;
    out.push(`  <testsuite name="${area}" ${formatCountAttributes(list)}>`, ...props);
    for (const c of list) {
      const testcase = `    <testcase classname="${area}" name="${escapeXml(`${c.name}${c.pool === null ? '' : ` [${c.pool}]`}`)}"`;
      const msgs = index.byCheck(c).map((x) => `${x.code}: ${x.message}`);
      const body = escapeXml(msgs.join('\n'));
      if (c.status === 'pass') out.push(`${testcase}/>`);
      else if (c.status === 'fail')
        out.push(
          `${testcase}><failure message="${escapeXml(c.codes.join(' '))}">${body}</failure></testcase>`,
        );
      else if (c.status === 'could-not-check')
        out.push(
          `${testcase}><error message="could not check">${escapeXml(c.note ?? '')}${body === '' ? '' : `\n${body}`}</error></testcase>`,
        );
      else out.push(`${testcase}><skipped message="${escapeXml(c.note ?? '')}"/></testcase>`);
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

/**
 * The JUnit document of an audit that did not complete: one testcase `audit [<base URL>]` with an
 * `<error>` whose type is the reason's code and whose text is its message, so a CI job shows the
 * cause among its test results instead of no report at all.
 */
export function formatJunitFailure(f: AuditFailure, name = 'reserve-audit'): string {
  const what = f.outcome === 'internal-error' ? 'internal error' : 'could not check';
  const counts = formatCountAttributes([{ status: 'could-not-check' }]);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeXml(name)}" ${counts}>`,
    `  <testsuite name="audit" ${counts}>`,
    `    <testcase classname="audit" name="${escapeXml(`audit [${f.baseUrl}]`)}"><error message="${escapeXml(`${what}: ${f.reason.code}`)}" type="${escapeXml(f.reason.code)}">${escapeXml(`${f.reason.code}: ${f.reason.message}`)}</error></testcase>`,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
