/**
 * Template keys (schema 6; schema/006-template-keys.ts): a
 * contract's template strings live once in the `templates` lookup table and the contract row holds
 * `template_key`. This module rebuilds what the row held before — the "package:name:Module:Entity"
 * string in SQL (both backends) and the four strings by key in JS — and reads every template's key
 * by its strings for the appliers of a snapshot.
 */
import type Database from 'better-sqlite3';

/** The four template strings a contract row held before schema 6. */
export interface TemplateStrings {
  readonly package_id: string;
  readonly package_name: string;
  readonly module_name: string;
  readonly entity_name: string;
}

/** "package_id:package_name:module_name:entity_name" of the contract row aliased `c` (both backends). */
export function buildTemplateSql(c = 'c'): string {
  return `(SELECT tk.package_id || ':' || tk.package_name || ':' || tk.module_name || ':' || tk.entity_name
    FROM templates tk WHERE tk.id = ${c}.template_key)`;
}

/** Every template of the mirror by key (a handful of rows: one per template an exchange uses). */
export function readTemplates(db: Database.Database): Map<number, TemplateStrings> {
  const m = new Map<number, TemplateStrings>();
  const rows = db
    .prepare('SELECT id, package_id, package_name, module_name, entity_name FROM templates')
    .all() as (TemplateStrings & { id: number })[];
  for (const { id, ...t } of rows) m.set(id, t);
  return m;
}

/** Every template's key by its strings (toTemplateKey; a handful of rows), from the rows of TEMPLATE_KEYS_SQL. */
export const TEMPLATE_KEYS_SQL =
  'SELECT id, package_id, package_name, module_name, entity_name FROM templates';
export function toTemplateKeyMap(rows: readonly (readonly unknown[])[]): Map<string, unknown> {
  return new Map(rows.map((r) => [r.slice(1, 5).map(String).join('\u0000'), r[0]]));
}
