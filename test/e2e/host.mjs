#!/usr/bin/env node
// Installs (or reuses) the pinned real n8n host in test/e2e/.host and prints what it took.
// Usage: node test/e2e/host.mjs [--force]
import { ensureHost } from './lib/host.mjs';
import { fmtMs, log } from './lib/util.mjs';

const force = process.argv.includes('--force');
const r = await ensureHost({ force });
log(`n8n ${r.version} host ${r.reused ? 'reused' : 'installed'} in ${fmtMs(r.ms)}`);
