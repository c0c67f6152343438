// Headless Chromium (Debian's package) driven by playwright-core: installed on demand when missing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { aptInstall } from './apt.mjs';

export const CHROMIUM = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';

export async function ensureChromium() {
	if (fs.existsSync(CHROMIUM)) return { installed: false };
	await aptInstall(['chromium'], { what: `${CHROMIUM} (or set E2E_CHROMIUM)` });
	if (!fs.existsSync(CHROMIUM))
		throw new Error(`apt-get install chromium did not provide ${CHROMIUM}`);
	return { installed: true };
}

/** Launches Chromium with a fresh profile; returns {browser, context, page, close}. */
export async function launchBrowser({ viewport = { width: 1280, height: 800 } } = {}) {
	const { chromium } = await import('playwright-core');
	const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-chromium-'));
	const context = await chromium.launchPersistentContext(userDataDir, {
		executablePath: CHROMIUM,
		headless: true,
		viewport,
		args: [
			'--headless',
			'--no-sandbox',
			'--disable-gpu',
			'--disable-dev-shm-usage',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--no-first-run',
		],
		timeout: 60_000,
	});
	context.setDefaultTimeout(30_000);
	const page = context.pages()[0] ?? (await context.newPage());
	return {
		context,
		page,
		async close() {
			await context.close().catch(() => {});
			fs.rmSync(userDataDir, { recursive: true, force: true });
		},
	};
}
