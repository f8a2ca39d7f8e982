#!/usr/bin/env node
// The `hookline` CLI runs the TypeScript sources directly: tsx is registered first, so the
// CLI needs no build step. The import must be dynamic to happen after the registration.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
