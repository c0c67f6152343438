// Jest's test environment for every suite (jest.config.js): Node's, with the console kept for the test
// that wrote to it. What a test writes to the console, n8n's logger included (its console transport
// writes to the console's streams), is held back: a test that passes shows none of it, a test that
// fails shows all of it (its last MAX_LINES lines) after its name, as its file's console output. What
// a hook writes goes with the test it runs for (beforeAll's with the first test), or with the hook
// when the hook fails.
// Why plain CommonJS JavaScript: jest loads an environment outside the tests, and one in TypeScript
// would load ts-jest there too, which keeps each worker from exiting in time at the end of the run.
'use strict';

const { format, inspect } = require('node:util');
const { TestEnvironment } = require('jest-environment-node');

/** The console methods that write, held back while a test runs. */
const WRITERS = ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir'];
/** A test that writes more keeps its last this many lines (and says how many went before them). */
const MAX_LINES = 2000;

/** @param {import('@jest/types').Circus.TestEntry} test */
function fullName(test) {
	const names = [];
	for (let block = test; block && block.parent; block = block.parent) names.unshift(block.name);
	return names.join(' › ');
}

class QuietEnvironment extends TestEnvironment {
	/** @type {string[]} What was written since the last test ended. */
	lines = [];

	dropped = 0;

	/** @type {(text: string) => void} */
	show = () => {};

	async setup() {
		await super.setup();
		// Its streams too: n8n's logger (winston's console transport) writes to `console._stdout`.
		const testConsole = this.global.console;
		const log = testConsole.log.bind(testConsole);
		const streams = { _stdout: testConsole._stdout, _stderr: testConsole._stderr };
		/** @param {string} name */
		const holding = (name) => ({
			/** @param {unknown} chunk */
			write: (chunk) => {
				this.hold(`${name} ${String(chunk).replace(/\n$/, '')}`);
				return true;
			},
		});
		const held = { _stdout: holding('stdout'), _stderr: holding('stderr') };
		Object.assign(testConsole, held);
		this.show = (text) => {
			Object.assign(testConsole, streams);
			try {
				log(text);
			} finally {
				Object.assign(testConsole, held);
			}
		};
		for (const method of WRITERS) {
			testConsole[method] = (...args) =>
				this.hold(
					`console.${method} ${method === 'dir' ? inspect(args[0], { depth: 4 }) : format(...args)}`,
				);
		}
	}

	/** @param {string} line */
	hold(line) {
		this.lines.push(line);
		if (this.lines.length > MAX_LINES) {
			this.lines.shift();
			this.dropped++;
		}
	}

	/**
	 * @param {string} heading
	 * @param {boolean} failed
	 */
	release(heading, failed) {
		if (failed && (this.lines.length > 0 || this.dropped > 0)) {
			const before = this.dropped > 0 ? [`(${this.dropped} earlier lines left out)`] : [];
			this.show([heading, ...before, ...this.lines].join('\n'));
		}
		this.lines = [];
		this.dropped = 0;
	}

	/** @param {import('@jest/types').Circus.Event} event */
	handleTestEvent(event) {
		if (event.name === 'test_done')
			this.release(
				`What the failed test "${fullName(event.test)}" wrote to the console (n8n's logger included):`,
				event.test.errors.length > 0,
			);
		else if (event.name === 'hook_failure')
			this.release(
				`What was written to the console up to the failed ${event.hook.type} hook (n8n's logger included):`,
				true,
			);
	}
}

module.exports = QuietEnvironment;
