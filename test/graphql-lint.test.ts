// @graphql-eslint's schema-recommended and Relay rules on schema.graphql, as configured in
// eslint.config.mjs: 0 findings, descriptions included.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });

const findings = (results: ESLint.LintResult[]) =>
  results.flatMap((result) => result.messages.map((message) => `${message.line}: ${message.ruleId} ${message.message}`));

describe('schema.graphql under @graphql-eslint', () => {
  it('runs the schema-recommended and Relay rules', async () => {
    const config = await eslint.calculateConfigForFile(path.join(root, 'schema.graphql'));
    const enabled = Object.entries(config.rules as Record<string, unknown[]>)
      .filter(([, setting]) => setting[0] !== 0 && setting[0] !== 'off')
      .map(([rule]) => rule);
    expect(enabled).toEqual(
      expect.arrayContaining([
        '@graphql-eslint/require-description',
        '@graphql-eslint/strict-id-in-types',
        '@graphql-eslint/naming-convention',
        '@graphql-eslint/no-unreachable-types',
        '@graphql-eslint/relay-arguments',
        '@graphql-eslint/relay-connection-types',
        '@graphql-eslint/relay-edge-types',
        '@graphql-eslint/relay-page-info',
      ]),
    );
  });

  it('finds nothing', async () => {
    expect(findings(await eslint.lintFiles(['schema.graphql']))).toEqual([]);
  });

  it('does look: a type without a description, and one without an id, are found', async () => {
    const schema = await readFile(path.join(root, 'schema.graphql'), 'utf8');
    const broken = schema
      .replace('"""One HTTP request of a delivery, as it went."""\ntype DeliveryAttempt', 'type DeliveryAttempt')
      .replace('type Query {', 'type Query {\n  """Something."""\n  orphan: Orphan!\n')
      .concat('\ntype Orphan {\n  name: String!\n}\n');
    expect(broken).not.toBe(schema);
    const found = findings(await eslint.lintText(broken, { filePath: path.join(root, 'schema.graphql') }));
    expect(found.some((finding) => finding.includes('require-description') && finding.includes('DeliveryAttempt'))).toBe(true);
    expect(found.some((finding) => finding.includes('strict-id-in-types') && finding.includes('Orphan'))).toBe(true);
  });
});
