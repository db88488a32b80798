/**
 * Template keys (schema 6; schema/006-template-keys.ts): a
 * contract's template strings live once in the `templates` lookup table and the contract row holds
 * `template_key`. This module rebuilds what the row held before — the "package:name:Module:Entity"
 * string in SQL (both backends) and the four strings by key in JS — and finds or adds the key of
 * a template when a contract is written (SQLite; the PostgreSQL writer does it set-based).
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

/**
 * A function giving the key of a template, adding it to `templates` the first time (call inside
 * the write transaction; memoised for that transaction's lifetime).
 */
export function createTemplateKeyLookup(db: Database.Database): (t: TemplateStrings) => number {
  const get = db
    .prepare(
      'SELECT id FROM templates WHERE package_id = ? AND package_name = ? AND module_name = ? AND entity_name = ?',
    )
    .pluck();
  const ins = db.prepare(
    'INSERT INTO templates (package_id, package_name, module_name, entity_name) VALUES (?, ?, ?, ?)',
  );
  const memo = new Map<string, number>();
  return (t) => {
    const k = `${t.package_id}\u0000${t.package_name}\u0000${t.module_name}\u0000${t.entity_name}`;
    let id = memo.get(k);
    if (id === undefined) {
      const args = [t.package_id, t.package_name, t.module_name, t.entity_name];
      const found = get.get(...args) as number | undefined;
      id = found ?? Number(ins.run(...args).lastInsertRowid);
      memo.set(k, id);
    }
    return id;
  };
}
