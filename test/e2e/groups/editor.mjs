// Editor group: the node's forms and the credential in headless Chromium, with screenshots.
import fs from 'node:fs';
import path from 'node:path';

import {
	assertTextsVisible,
	closeNode,
	openNode,
	openWorkflow,
	withSignedInPage,
} from '../lib/editor.mjs';
import { assert } from '../lib/util.mjs';
import * as W from '../lib/workflows.mjs';

export async function editor({ n8n, screenshotDir: SCREENSHOT_DIR }, check) {
	await check('editor: node forms and credential in headless Chromium, screenshots', async () => {
		fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
		await withSignedInPage(n8n.baseUrl, 'editor-failure', async (page) => {
			const wf = W.editorWorkflow();
			await openWorkflow(page, n8n.baseUrl, wf.id);
			const names = await page.$$eval('[data-test-id="canvas-node"]', (els) =>
				els.map((e) => e.getAttribute('data-node-name')),
			);
			for (const n of ['Create Todo', 'Update Billing', 'Record Acquisition'])
				assert(names.includes(n), `canvas shows node "${n}" (has ${names.join(', ')})`);
			await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'workflow.png') });

			const forms = [
				[
					'Create Todo',
					'create-todo.png',
					['Credential', 'Resource', 'Operation', 'Asset ID', 'Name'],
				],
				[
					'Update Billing',
					'update-billing.png',
					['Subscription ID', 'Price Model', 'Cost', 'Billing Frequency', 'License Count'],
				],
				[
					'Record Acquisition',
					'record-acquisition.png',
					['Asset ID', 'Event Type ID', 'Payment', 'Billing Frequency', 'Number of Payments'],
					// the Payment entry, at the bottom of the form
					'Number of Payments',
				],
			];
			for (const [node, file, labels, scrollTo] of forms) {
				await openNode(page, node);
				await assertTextsVisible(
					page,
					'[data-test-id="ndv"] [data-test-id="node-parameters"]',
					labels,
					`node "${node}"`,
				);
				if (scrollTo) {
					await page
						.locator('[data-test-id="ndv"] [data-test-id="node-parameters"]')
						.getByText(scrollTo, { exact: true })
						.scrollIntoViewIfNeeded();
					await page.waitForTimeout(300);
				}
				await page.screenshot({ path: path.join(SCREENSHOT_DIR, file) });
				await closeNode(page);
			}

			await page.goto(`${n8n.baseUrl}/home/credentials/${W.CREDENTIAL.id}`);
			await page.waitForSelector('[data-test-id="editCredential-modal"]', { timeout: 30_000 });
			await page.waitForTimeout(800);
			await assertTextsVisible(
				page,
				'[data-test-id="editCredential-modal"]',
				['Base URL', 'API Token', 'Ignore SSL Issues (Insecure)'],
				'credential "Inventory sandbox"',
			);
			await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'credential.png') });
		});
	});
}
