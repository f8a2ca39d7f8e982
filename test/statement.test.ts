// Statements number their own parameters: a part carries its values, and the statement it is
// put in numbers them in the order they appear, so nesting one part in another renumbers it.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import sql, { empty, join, raw } from 'sql-template-tag';
import { describe, expect, it } from 'vitest';
import { named } from '../src/db/statement.ts';

describe('sql statements', () => {
  it('numbers the values in the order they appear', () => {
    const statement = sql`SELECT id FROM deploys WHERE service_id = ${'s1'} AND environment = ${'production'}`;
    expect(statement.text).toBe('SELECT id FROM deploys WHERE service_id = $1 AND environment = $2');
    expect(statement.values).toEqual(['s1', 'production']);
  });

  it('renumbers a nested part after the values before it, and numbers the values after it on', () => {
    const condition = sql`e.status = ${'ACTIVE'} AND e.id <> ${'e1'}`;
    const statement = sql`SELECT ${1} FROM webhook_endpoints e WHERE e.organization_id = ${'o1'} AND ${condition} LIMIT ${25}`;
    expect(statement.text).toBe(
      'SELECT $1 FROM webhook_endpoints e WHERE e.organization_id = $2 AND e.status = $3 AND e.id <> $4 LIMIT $5',
    );
    expect(statement.values).toEqual([1, 'o1', 'ACTIVE', 'e1', 25]);
    // The part itself is unchanged: it can be put in another statement too.
    expect(condition.text).toBe('e.status = $1 AND e.id <> $2');
  });

  it('gives each use of a value its own number', () => {
    const percentage = 25;
    const statement = sql`SELECT ${percentage}::float8, ${percentage}::float8 IS NULL`;
    expect(statement.text).toBe('SELECT $1::float8, $2::float8 IS NULL');
    expect(statement.values).toEqual([25, 25]);
  });

  it('puts raw text and empty parts in as SQL, with no value', () => {
    const statement = sql`SELECT * FROM events WHERE type = ${raw("'deploy.ingested'")}${empty} AND id IN (${join(['a', 'b'], ', ')})`;
    expect(statement.text).toBe("SELECT * FROM events WHERE type = 'deploy.ingested' AND id IN ($1, $2)");
    expect(statement.values).toEqual(['a', 'b']);
  });

  it('keeps a named statement’s text the same whatever its values', () => {
    const statement = (key: string | null) => named('by-key', sql`SELECT id FROM deploys WHERE idempotency_key = ${key}`);
    expect(statement('k1')).toEqual({ name: 'by-key', text: 'SELECT id FROM deploys WHERE idempotency_key = $1', values: ['k1'] });
    expect(statement(null).text).toBe(statement('k2').text);
  });
});

describe('the statements of src/', () => {
  it('number no parameter by hand: every value is put in by a sql`` part', async () => {
    const sourceDirectory = path.resolve(import.meta.dirname, '../src');
    const files = (await readdir(sourceDirectory, { recursive: true }))
      .filter((file) => /\.tsx?$/.test(file) && !file.startsWith(`generated${path.sep}`))
      .map((file) => path.join(sourceDirectory, file));
    const handNumbered: string[] = [];
    for (const file of files) {
      const lines = (await readFile(file, 'utf8')).split('\n');
      lines.forEach((line, index) => {
        const code = line.trimStart();
        // Comments may name parameters; String.replace's `$1` is a capture group, not a parameter.
        if (code.startsWith('//') || code.startsWith('*') || code.includes('.replace(')) return;
        if (/\$\d+\b/.test(code)) handNumbered.push(`${path.relative(sourceDirectory, file)}:${index + 1}: ${code}`);
      });
    }
    expect(handNumbered).toEqual([]);
  });
});
