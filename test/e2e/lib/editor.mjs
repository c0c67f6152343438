// The n8n editor (2.x) in headless Chromium: sign in, open a workflow, open a node's panel (NDV),
// open a credential, assert visible fields, take screenshots.
import fs from 'node:fs';
import path from 'node:path';

import { launchBrowser } from './browser.mjs';
import { OWNER } from './n8n.mjs';
import { WORK_DIR, assert } from './util.mjs';

export async function signIn(page, baseUrl, owner = OWNER) {
	await page.goto(`${baseUrl}/signin`);
	await page.fill('input[name="emailOrLdapLoginId"]', owner.email);
	await page.fill('input[name="password"]', owner.password);
	await page.click('[data-test-id="form-submit-button"]');
	await page.waitForURL((u) => !u.pathname.startsWith('/signin'), { timeout: 30_000 });
}

export async function openWorkflow(page, baseUrl, workflowId) {
	await page.goto(`${baseUrl}/workflow/${workflowId}`);
	await page.waitForSelector('[data-test-id="canvas-node"]', { timeout: 60_000 });
	// Let the canvas settle (fit view animation) before screenshots.
	await page.waitForTimeout(800);
}

export async function openNode(page, nodeName) {
	await page.dblclick(`[data-test-id="canvas-node"][data-node-name="${nodeName}"]`);
	await page.waitForSelector('[data-test-id="ndv"] [data-test-id="node-parameters"]', {
		timeout: 30_000,
	});
	await page.waitForTimeout(500);
}

export async function closeNode(page) {
	await page.click('[data-test-id="ndv-close-button"]');
	await page.waitForSelector('[data-test-id="ndv"] [data-test-id="node-parameters"]', {
		state: 'detached',
		timeout: 15_000,
	});
}

/** Labels shown in a container (parameter display names), trimmed, without required markers. */
export async function visibleLabels(page, containerSelector) {
	return await page.$$eval(
		`${containerSelector} label, ${containerSelector} [data-test-id="input-label"]`,
		(els) =>
			[
				...new Set(
					els
						.filter((e) => e.offsetParent !== null)
						.map((e) => e.innerText.replace(/\*/g, '').trim()),
				),
			].filter(Boolean),
	);
}

export async function assertTextsVisible(page, containerSelector, texts, what) {
	const text = await page.$eval(containerSelector, (e) => e.innerText);
	const missing = texts.filter((t) => !text.includes(t));
	assert(
		missing.length === 0,
		`${what}: not visible: ${missing.join(', ')}\n--- visible text ---\n${text.slice(0, 2000)}`,
	);
}

/**
 * A fresh headless Chromium signed in to n8n, for `fn(page)`; on failure a screenshot of the page
 * is kept under the e2e work folder (`<failureName>.png`) and named in the error.
 */
export async function withSignedInPage(baseUrl, failureName, fn) {
	const b = await launchBrowser({ viewport: { width: 1280, height: 800 } });
	const { page } = b;
	try {
		await signIn(page, baseUrl);
		return await fn(page);
	} catch (e) {
		const shot = path.join(WORK_DIR, `${failureName}.png`);
		fs.mkdirSync(WORK_DIR, { recursive: true });
		await page.screenshot({ path: shot }).catch(() => {});
		throw new Error(`${e.message}\n(screenshot of the failure: ${shot})`);
	} finally {
		await b.close();
	}
}
