// One pg pool per process, shared by Prisma (through the driver adapter) and the few
// places that speak SQL directly (migrations, rate-limit counters).
import type pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.ts';
import { connectPool, type ConnectOptions } from './pool.ts';

export type { ConnectOptions, Queryable } from './pool.ts';

export interface Database {
  pool: pg.Pool;
  prisma: PrismaClient;
  close(): Promise<void>;
}

export function connectDatabase(url: string, options: ConnectOptions = {}): Database {
  const pool = connectPool(url, options);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    pool,
    prisma,
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
