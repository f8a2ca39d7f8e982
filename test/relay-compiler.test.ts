// relay-compiler (the npm package's own binary) on documents a Relay app would write against
// schema.graphql: fragments with @refetchable (which needs Node and node(id:)), a paginated
// @connection list with totalCount, and the queries that spread them. The compiler refuses
// anything the schema does not satisfy, so a clean compile is the check.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const RELAY_COMPILER = path.join(root, 'node_modules', '.bin', 'relay-compiler');

/** Module name → its documents, as a Relay app's components hold them (Relay names fragments and queries after their module). */
const DOCUMENTS: Record<string, string> = {
  ServiceHeader: `
    fragment ServiceHeader_service on Service @refetchable(queryName: "ServiceHeaderRefetchQuery") {
      id
      name
      deployTokenPrefix
      dependsOn { id name }
    }
  `,
  ServiceDeploys: `
    fragment ServiceDeploys_service on Service
      @refetchable(queryName: "ServiceDeploysPaginationQuery")
      @argumentDefinitions(count: { type: "Int", defaultValue: 10 }, cursor: { type: "String" }) {
      deploys(first: $count, after: $cursor) @connection(key: "ServiceDeploys_deploys") {
        totalCount
        totalCountIsEstimate
        edges { node { id commitSha environment deployedAt ...DeployRow_deploy } }
      }
    }
  `,
  DeployRow: `
    fragment DeployRow_deploy on Deploy @refetchable(queryName: "DeployRowRefetchQuery") {
      id
      commitSha
      service { id name }
      commits { sha message }
    }
  `,
  EndpointDeliveries: `
    fragment EndpointDeliveries_endpoint on WebhookEndpoint
      @refetchable(queryName: "EndpointDeliveriesPaginationQuery")
      @argumentDefinitions(count: { type: "Int", defaultValue: 20 }, cursor: { type: "String" }, status: { type: "DeliveryStatus" }) {
      id
      name
      deliveries(first: $count, after: $cursor, status: $status) @connection(key: "EndpointDeliveries_deliveries", filters: ["status"]) {
        totalCount
        edges { node { id status attemptCount event { id type } } }
      }
    }
  `,
  ServicePage: `
    query ServicePageQuery($id: ID!) {
      service(id: $id) { ...ServiceHeader_service ...ServiceDeploys_service }
    }
  `,
  NodePage: `
    query NodePageQuery($id: ID!) {
      node(id: $id) { id ...ServiceHeader_service @alias ...EndpointDeliveries_endpoint @alias }
    }
  `,
  ServicesList: `
    query ServicesListQuery {
      services(first: 20) @connection(key: "ServicesList_services") { totalCount edges { node { id ...ServiceHeader_service } } }
    }
  `,
};

let work: string;

async function compile(documents: Record<string, string>) {
  const src = path.join(work, 'src');
  const generated = path.join(work, 'generated');
  await rm(src, { recursive: true, force: true });
  await rm(generated, { recursive: true, force: true });
  await mkdir(src, { recursive: true });
  await mkdir(generated, { recursive: true });
  for (const [module, document] of Object.entries(documents)) {
    await writeFile(path.join(src, `${module}.js`), `graphql\`${document}\`;\n`);
  }
  const config = path.join(work, 'relay.config.json');
  await writeFile(
    config,
    JSON.stringify({ src: './src', schema: path.join(root, 'schema.graphql'), language: 'javascript', artifactDirectory: './generated' }),
  );
  try {
    const { stdout, stderr } = await promisify(execFile)(RELAY_COMPILER, [config], { cwd: work });
    return { ok: true, output: stdout + stderr, generated };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}`, generated };
  }
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'hookline-relay-'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('relay-compiler', () => {
  it('compiles the sample documents, refetching Service, Deploy and WebhookEndpoint through node(id:)', async () => {
    const { ok, output, generated } = await compile(DOCUMENTS);
    expect(ok, output).toBe(true);
    const refetch = await readFile(path.join(generated, 'ServiceHeaderRefetchQuery.graphql.js'), 'utf8');
    expect(refetch).toContain('node(id: $id)');
    const pagination = await readFile(path.join(generated, 'ServiceDeploysPaginationQuery.graphql.js'), 'utf8');
    expect(pagination).toContain('totalCount');
    await readFile(path.join(generated, 'EndpointDeliveriesPaginationQuery.graphql.js'), 'utf8');
    await readFile(path.join(generated, 'DeployRowRefetchQuery.graphql.js'), 'utf8');
  });

  it('refuses what the schema does not allow: @refetchable on a type that is not a Node', async () => {
    const { ok, output } = await compile({
      ...DOCUMENTS,
      EndpointStatsCard: `fragment EndpointStatsCard_stats on EndpointStats @refetchable(queryName: "EndpointStatsCardRefetchQuery") { deliveriesLast24h }`,
    });
    expect(ok).toBe(false);
    expect(output).toContain('EndpointStats');
  });
});
