/**
 * Mirror schema v12 (docs/mirror.md "Failed attempts"): a snapshot in which every requested section
 * failed, or that saw no pool where the mirror already knew pools, is not history — it is kept as
 * a failed attempt (when, against which URL, why) in its own table, so `mirror stats` and the
 * history checks never count it as a snapshot. Same table in both dialects.
 */
import { type Dialect, type SchemaStep, WORDS } from './dialect.js';

function buildFailedAttemptsSql(d: Dialect): string[] {
  const w = WORDS[d];
  return [
    `CREATE TABLE failed_attempts (
     id ${w.serial},
     attempt_key TEXT NOT NULL UNIQUE,
     base_url TEXT NOT NULL,
     started_at_ms ${w.big} NOT NULL,
     finished_at_ms ${w.big} NOT NULL,
     recorded_at_ms ${w.big} NOT NULL,
     reason TEXT NOT NULL,
     failed_sections TEXT NOT NULL
   )`,
    'CREATE INDEX failed_attempts_started ON failed_attempts (started_at_ms)',
  ];
}

export const FAILED_ATTEMPTS: SchemaStep = {
  name: 'failed-attempts',
  sqlite: buildFailedAttemptsSql('sqlite'),
  postgres: buildFailedAttemptsSql('postgres'),
};
