#!/usr/bin/env node
// The `hookline` CLI runs the compiled program (`npm run build`, which `npm install` runs).
import '../dist/cli.js';
