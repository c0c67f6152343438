import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Imported before n8n-core: its InstanceSettings keeps its config (encryption key, instance id) in the user folder.
process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'inventory-n8n-'));
process.env.N8N_ENCRYPTION_KEY ??= 'inventory-tests-encryption-key';
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
