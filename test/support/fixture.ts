// Each test file's Hookline: its own database, an app on it, a tenant and a receiver, started
// before the file's tests and closed (and the database dropped) after them. A file calls
// `useHookline` once at its top level; what it starts later through the returned object (more
// apps, databases, receivers, worker processes) is closed with the rest, or, when a test started
// it, as that test finishes: each app and process holds up to 16 PostgreSQL connections, and a
// file whose tests each start their own kept 67 open until it ended, which with two other files
// running beside it went past PostgreSQL's default max_connections (100).
import { afterAll, beforeAll, onTestFinished, TestRunner } from 'vitest';
import type { App } from '../../src/app.ts';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { createTenant, requestGraphqlWith, startApp, type GraphqlResponse, type RunningApp, type Tenant } from './app.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { startHooklineProcess, type ProcessOptions, type WorkerProcess } from './worker-process.ts';

export interface HooklineOptions {
  /** Settings for the app, over startApp's own (silent logs, rollbacks judged promptly). */
  environment?: Record<string, string>;
  /** false: no app (files that run Hookline as processes, or reach the database themselves). */
  app?: boolean;
  /**
   * false: nothing before the tests (files whose tests each make the databases they need, often
   * empty ones, or run a PostgreSQL of their own); they start them through the fixture.
   */
  database?: boolean;
  /** The service name of the file's tenant; false: no tenant. Default "checkout". */
  tenant?: string | false;
  /** true: a receiver standing in for a customer's endpoint. */
  receiver?: boolean;
  /** false: an empty database rather than a migrated one (migration and start-up tests). */
  migrated?: boolean;
}

export interface Hookline {
  readonly database: TestDatabase;
  /** The file's app, its address and its tenant (each an error to read if the options left it out). */
  readonly app: App;
  readonly baseUrl: string;
  readonly running: RunningApp;
  readonly tenant: Tenant;
  readonly receiver: Receiver;
  /** Another database, for state the file's app must not share (rate-limit counters, a restart). */
  createDatabase(options?: { migrated?: boolean }): Promise<TestDatabase>;
  /** Another app with its own settings, on the file's database or on `databaseUrl`. */
  startApp(environment?: Record<string, string>, databaseUrl?: string): Promise<RunningApp>;
  /** Another tenant (an organization with one service), on the file's app or on `app`. */
  createTenant(serviceName?: string, app?: App): Promise<Tenant>;
  startReceiver(): Promise<Receiver>;
  /** A typed GraphQL operation on the file's app, as `apiToken`'s organization (none: anonymous). */
  graphql<TResult, TVariables>(
    apiToken: string | undefined,
    document: TypedDocumentNode<TResult, TVariables>,
    variables: NoInfer<TVariables>,
  ): Promise<GraphqlResponse<TResult>>;
  /** A Hookline process (`npm start`'s program) on the file's database; stopped after the file. */
  startProcess(
    role: Parameters<typeof startHooklineProcess>[0],
    environment?: Record<string, string>,
    name?: string,
    options?: ProcessOptions,
  ): WorkerProcess;
  /** Runs `close` after the file's tests, before the apps, receivers and databases are closed. */
  onClose(close: () => unknown): void;
}

function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= close());
}

export function useHookline(options: HooklineOptions = {}): Hookline {
  const {
    environment = {},
    database: withDatabase = true,
    app: withApp = withDatabase,
    tenant: serviceName = 'checkout',
    receiver: withReceiver = false,
    migrated,
  } = options;
  // Closed in this order, each kind last-started first: the file's own closers; apps and
  // processes (they finish attempts in flight, which may be talking to a receiver); receivers;
  // databases.
  const closers = {
    own: [] as (() => unknown)[],
    apps: [] as (() => unknown)[],
    receivers: [] as (() => unknown)[],
    databases: [] as (() => unknown)[],
  };
  let database: TestDatabase | undefined;
  let running: RunningApp | undefined;
  let tenant: Tenant | undefined;
  let receiver: Receiver | undefined;

  /** Closes `close` when the running test finishes, or else with the file's `kind` after its tests. */
  const closeAfter = (kind: (() => unknown)[], close: () => unknown) => {
    if (TestRunner.getCurrentTest() === undefined) {
      kind.push(close);
    } else {
      onTestFinished(async () => {
        await close();
      });
    }
  };

  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`useHookline: no ${what} (left out by its options, or read before beforeAll)`);
    return value;
  };

  const hookline: Hookline = {
    get database() {
      return started(database, 'database');
    },
    get running() {
      return started(running, 'app');
    },
    get app() {
      return started(running, 'app').app;
    },
    get baseUrl() {
      return started(running, 'app').baseUrl;
    },
    get tenant() {
      return started(tenant, 'tenant');
    },
    get receiver() {
      return started(receiver, 'receiver');
    },
    async createDatabase(databaseOptions = {}) {
      const another = await createTestDatabase(databaseOptions);
      closeAfter(closers.databases, () => another.drop());
      return another;
    },
    async startApp(environment = {}, databaseUrl = hookline.database.url) {
      const another = await startApp(databaseUrl, environment);
      // A test may close an app itself (to restart it, or to test closing): closed once.
      const closed = once(() => another.close());
      closeAfter(closers.apps, closed);
      return { ...another, close: closed };
    },
    createTenant(name, app = hookline.app) {
      return createTenant(app, name);
    },
    graphql(apiToken, document, variables) {
      return requestGraphqlWith(hookline.baseUrl, apiToken, document, variables);
    },
    async startReceiver() {
      const another = await startReceiver();
      const closed = once(() => another.close());
      closeAfter(closers.receivers, closed);
      return { ...another, close: closed };
    },
    startProcess(role, environment = {}, name, processOptions) {
      const process = startHooklineProcess(role, hookline.database.url, environment, name, processOptions);
      closeAfter(closers.apps, () => process.stop());
      return process;
    },
    onClose(close) {
      closers.own.push(close);
    },
  };

  beforeAll(async () => {
    if (withDatabase) database = await hookline.createDatabase({ migrated });
    if (withApp) {
      running = await hookline.startApp(environment);
      if (serviceName !== false) tenant = await createTenant(running.app, serviceName);
    }
    if (withReceiver) receiver = await hookline.startReceiver();
  });

  afterAll(async () => {
    const failures: unknown[] = [];
    for (const kind of [closers.own, closers.apps, closers.receivers, closers.databases]) {
      while (kind.length > 0) {
        try {
          await kind.pop()!();
        } catch (error) {
          failures.push(error);
        }
      }
    }
    if (failures.length > 0) throw failures[0];
  });

  return hookline;
}
