// The dashboard: a React single-page app built into web/dist, which Hookline serves at `/`
// (src/http/dashboard.ts). `npm run build:web` builds it; `npx vite --config web/vite.config.ts`
// serves it with hot reload against a Hookline on HOOKLINE_URL (default http://127.0.0.1:4000).
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const hookline = process.env.HOOKLINE_URL ?? 'http://127.0.0.1:4000';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No source maps in the served bundle; the sources are in the repository.
    sourcemap: false,
  },
  server: {
    proxy: {
      '/graphql': { target: hookline, ws: true },
      '/api': hookline,
    },
  },
});
