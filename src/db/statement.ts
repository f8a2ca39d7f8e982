// A raw SQL statement with its values. Statements are written with sql-template-tag's `sql`
// tag, whose parts carry their values: sql`... ${value} ...` sends `value` as a parameter, a
// nested sql`` part brings its own, and the whole numbers them ($1, $2...) in the order they
// appear, so no parameter number is written by hand away from its value. Text that is SQL,
// not a value, goes in through raw(). pg's query() takes a statement as is; Prisma's raw
// queries take its text and its values spread.
import type { Sql } from 'sql-template-tag';

export interface Statement {
  text: string;
  values: unknown[];
}

/**
 * A statement prepared under `name`: each connection parses and plans it once, so its text must
 * be the same every time (the values vary, never the parts). The text is read here because a
 * `sql` statement renders it on demand (a spread would lose it).
 */
export function named(name: string, statement: Sql): Statement & { name: string } {
  return { name, text: statement.text, values: statement.values };
}
